// A list's choice filter kept in the address under `param`: one history entry per choice, cleared with ×.
import { Select } from "@mantine/core";
import { useUrlFilters } from "../lib/url-filters";

interface FilterSelectProps {
  readonly label: string;
  readonly placeholder: string;
  /** The address's parameter. */
  readonly param: string;
  /** Value -> what the person reads, in the order shown. */
  readonly options: Readonly<Record<string, string>>;
  readonly width: number;
}

export function FilterSelect({ label, placeholder, param, options, width }: FilterSelectProps) {
  const { params, setFilter } = useUrlFilters();
  return (
    <Select
      label={label}
      placeholder={placeholder}
      clearable
      data={Object.entries(options).map(([value, text]) => ({ value, label: text }))}
      value={params.get(param)}
      onChange={(value) => setFilter(param, value)}
      w={width}
    />
  );
}
