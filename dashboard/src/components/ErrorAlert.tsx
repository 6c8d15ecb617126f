import { Alert, Text } from "@mantine/core";
import { ApiError } from "../api/client";

/**
 * The API's field name as the form calls it: `iban`, `/iban` or `/body/iban` -> the label given for `iban`.
 * A field the form does not know keeps the API's name (better than hiding which field was refused).
 */
function labelOf(field: string, labels: Readonly<Record<string, string>>): string {
  const bare = field.replace(/^\//, "");
  return labels[bare] ?? labels[bare.split(/[/.]/).at(-1) ?? bare] ?? bare;
}

/**
 * An error envelope where it belongs: its message, each refused field by the label the person sees on the form
 * (`fieldLabels`, API field name -> label), and, small and dimmed, the codes and the request id to quote to support.
 */
export function ErrorAlert({
  error,
  title = "That did not work",
  fieldLabels = {},
  fieldsShown,
}: {
  error: unknown;
  title?: string;
  fieldLabels?: Readonly<Record<string, string>>;
  /**
   * The form already shows these API fields' refusals beside them (setFieldErrors): a refusal whose every
   * detail names one of them is said there once, not again here (a weak password was said three times).
   */
  fieldsShown?: readonly string[];
}) {
  if (error === null || error === undefined) return null;
  const apiError = error instanceof ApiError ? error : null;
  const details = apiError?.body.details ?? [];
  if (
    fieldsShown !== undefined &&
    details.length > 0 &&
    details.every((d) => fieldsShown.includes(d.field.replace(/^\/(body\/)?/, "")))
  )
    return null;
  const message = apiError?.message ?? (error instanceof Error ? error.message : "Something went wrong.");
  return (
    <Alert color="red" title={title} role="alert">
      <Text size="sm">{message}</Text>
      {apiError?.body.details !== undefined && apiError.body.details.length > 0 && (
        <ul>
          {apiError.body.details.map((detail) => (
            <li key={`${detail.field}:${detail.code}`}>
              <Text size="xs" component="span">
                {labelOf(detail.field, fieldLabels)}: {detail.message}
              </Text>{" "}
              <Text size="xs" c="dimmed" component="span">
                ({detail.code})
              </Text>
            </li>
          ))}
        </ul>
      )}
      {apiError !== null && (
        <Text size="xs" c="dimmed" mt={4}>
          Code {apiError.code}
          {apiError.body.request_id !== "" ? ` · request ${apiError.body.request_id}` : ""}
        </Text>
      )}
    </Alert>
  );
}
