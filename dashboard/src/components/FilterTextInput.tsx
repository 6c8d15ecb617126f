// A text filter that changes the list (and adds a history entry) once per decision, not once per keystroke:
// when the text is complete (a pasted id), emptied, or confirmed with Enter or by leaving the field. The
// field follows the address when Back, Forward or a link changes it.
import { TextInput, type TextInputProps } from "@mantine/core";
import { useEffect, useState } from "react";

interface FilterTextInputProps extends Omit<TextInputProps, "value" | "onChange" | "error"> {
  readonly value: string;
  readonly onCommit: (value: string) => void;
  /** Text that is whole as it stands (e.g. a full UUID) applies without waiting for Enter. */
  readonly complete?: (value: string) => boolean;
  /** The draft's problem, if any, shown beside the field. */
  readonly problem?: (value: string) => string | undefined;
}

export function FilterTextInput({ value, onCommit, complete, problem, ...rest }: FilterTextInputProps) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  const commit = (text: string) => {
    if (text !== value) onCommit(text);
  };
  return (
    <TextInput
      {...rest}
      value={draft}
      error={problem?.(draft.trim())}
      onChange={(e) => {
        const text = e.currentTarget.value;
        setDraft(text);
        if (text.trim() === "" || complete?.(text.trim()) === true) commit(text.trim());
      }}
      onBlur={() => commit(draft.trim())}
      onKeyDown={(e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          commit(draft.trim());
        }
      }}
    />
  );
}
