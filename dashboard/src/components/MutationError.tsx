// A write's refusal, where the person acted: the mutation's error (null while it runs or after it succeeded)
// through ErrorAlert, the same envelope rendering every page uses.
import { ErrorAlert } from "./ErrorAlert";

export function MutationError({
  mutation,
  title,
  fieldLabels,
}: {
  mutation: { readonly error: unknown };
  title?: string;
  fieldLabels?: Readonly<Record<string, string>>;
}) {
  return (
    <ErrorAlert
      error={mutation.error}
      {...(title !== undefined && { title })}
      {...(fieldLabels !== undefined && { fieldLabels })}
    />
  );
}
