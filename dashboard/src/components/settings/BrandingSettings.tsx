// The hosted collection pages' branding of the chosen environment (GET|PATCH /v1/branding): display name,
// brand colour (the API refuses one white text is unreadable on, `low_contrast`, shown beside the field) and a
// PNG or JPEG logo sent as base64 (at most 100 KiB; the API checks the first bytes).
import { Button, ColorInput, Group, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useEffect, useState } from "react";
import { ApiError } from "../../api/client";
import { type BrandingChanges as Body, useUpdateBranding } from "../../hooks/api/branding/mutations";
import { useBranding } from "../../hooks/api/branding/queries";
import { setFieldErrors, withCode } from "../../hooks/api/form-errors";
import { settle } from "../../hooks/api/use-api-mutation";
import { useSignedIn } from "../../lib/session";
import { ConfirmButton } from "../ConfirmButton";
import { ErrorAlert } from "../ErrorAlert";
import { Time } from "../Time";

type Logo = { media_type: "image/png" | "image/jpeg"; data: string; size: number };
interface Values {
  display_name: string;
  brand_color: string;
  /** A chosen image, sent with the next save. */
  logo: Logo | null;
}
const LOGO_MAX_BYTES = 100 * 1024;

function base64Of(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function BrandingSettings() {
  const { membership } = useSignedIn();
  const admin = membership.role === "business_admin";
  const branding = useBranding();
  const update = useUpdateBranding();
  const form = useForm<Values>({ initialValues: { display_name: "", brand_color: "", logo: null } });
  const [saved, setSaved] = useState(false);
  const error = update.error;
  const { setValues } = form;

  useEffect(() => {
    if (branding.data === undefined) return;
    setValues({ display_name: branding.data.display_name ?? "", brand_color: branding.data.brand_color ?? "" });
  }, [branding.data, setValues]);

  const send = (body: Body) => {
    setSaved(false);
    return update.mutateAsync(body).then(
      () => {
        form.setFieldValue("logo", null);
        setSaved(true);
      },
      (refusal: unknown) => {
        setFieldErrors(form, refusal, { format: withCode });
      },
    );
  };
  const save = form.onSubmit(({ display_name, brand_color, logo }) => {
    const body: Body = {
      display_name: display_name.trim() === "" ? null : display_name.trim(),
      brand_color: brand_color.trim() === "" ? null : brand_color.trim(),
    };
    if (logo !== null) body.logo = { media_type: logo.media_type, data: logo.data };
    void send(body);
  });
  const choose = async (file: File | undefined) => {
    form.setFieldValue("logo", null);
    form.clearFieldError("logo");
    if (file === undefined) return;
    if (file.type !== "image/png" && file.type !== "image/jpeg") {
      form.setFieldError("logo", "Choose a PNG or JPEG image.");
      return;
    }
    if (file.size > LOGO_MAX_BYTES) {
      form.setFieldError("logo", `The image is ${Math.ceil(file.size / 1024)} KiB; at most 100 KiB.`);
      return;
    }
    form.setFieldValue("logo", {
      media_type: file.type,
      data: base64Of(new Uint8Array(await file.arrayBuffer())),
      size: file.size,
    });
  };
  const logoError = form.errors.logo;

  if (branding.isPending) return <Text c="dimmed">Loading the branding…</Text>;
  if (branding.isError) return <ErrorAlert error={branding.error} />;
  const current = branding.data;

  return (
    <form onSubmit={save} aria-label="Branding">
      <Stack maw={480}>
        <Text size="sm">
          How the hosted collection pages of this environment present your Business. Last changed:{" "}
          {current.updated_at === null ? "never" : <Time value={current.updated_at} />}.
        </Text>
        <TextInput
          label="Display name"
          description="Empty: the name in the Business profile."
          maxLength={100}
          readOnly={!admin}
          {...form.getInputProps("display_name")}
        />
        <ColorInput
          label="Brand colour"
          description="White text must stay readable on it."
          format="hex"
          withEyeDropper={false}
          readOnly={!admin}
          {...form.getInputProps("brand_color")}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} component="label" htmlFor="branding-logo">
            Logo
          </Text>
          <Text size="xs" c="dimmed" data-testid="current-logo">
            {current.logo === null
              ? "No logo."
              : `Current logo: ${current.logo.media_type}, ${Math.ceil(current.logo.size_bytes / 1024)} KiB.`}
          </Text>
          {admin && (
            <input
              id="branding-logo"
              type="file"
              accept="image/png,image/jpeg"
              onChange={(e) => void choose(e.currentTarget.files?.[0])}
            />
          )}
          {logoError !== undefined && logoError !== null && (
            <Text size="xs" c="red.9">
              {logoError}
            </Text>
          )}
        </Stack>
        {error instanceof ApiError && (error.body.details?.length ?? 0) > 0 ? (
          <Text size="sm" c="red.9" role="alert">
            {error.message} ({error.code})
          </Text>
        ) : (
          <ErrorAlert error={error} />
        )}
        {saved && (
          <Text role="status" c="teal.9">
            Branding saved.
          </Text>
        )}
        {admin ? (
          <Group>
            <Button type="submit" loading={update.isPending}>
              Save branding
            </Button>
            {current.logo !== null && (
              <ConfirmButton
                variant="outline"
                color="red"
                label="Remove logo"
                title="Remove the logo?"
                message="The hosted pages will show no logo."
                confirmLabel="Remove logo"
                onConfirm={() => settle(send({ logo: null }))}
              />
            )}
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            Only admins change the branding.
          </Text>
        )}
      </Stack>
    </form>
  );
}
