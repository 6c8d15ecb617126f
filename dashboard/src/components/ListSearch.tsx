// A list's search box: the text is sent when the form is submitted (one history entry per search, none per
// keystroke), and the field follows the address when Back, Forward or a link changes the search.
import { Button, Group, TextInput } from "@mantine/core";
import { type FormEvent, useEffect, useState } from "react";

interface ListSearchProps {
  /** The form's accessible name, such as "Search payouts". */
  readonly formLabel: string;
  /** The field's label ("Search" unless told). */
  readonly label?: string;
  /** The button's text ("Search" unless told): two searches on one page need two names. */
  readonly buttonText?: string;
  readonly description: string;
  /** The search in the address. */
  readonly value: string;
  readonly width: number;
  readonly onSearch: (text: string) => void;
}

export function ListSearch({
  formLabel,
  label = "Search",
  buttonText = "Search",
  description,
  value,
  width,
  onSearch,
}: ListSearchProps) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text.trim());
  };
  return (
    <form onSubmit={submit} aria-label={formLabel}>
      <Group align="flex-end" gap="sm">
        <TextInput
          label={label}
          description={description}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          w={width}
          maw="100%"
        />
        <Button type="submit" variant="default">
          {buttonText}
        </Button>
      </Group>
    </form>
  );
}
