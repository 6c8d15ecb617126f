// The hosted collection pages' branding of the chosen environment (GET|PATCH /v1/branding): display name,
// brand colour (the API refuses one white text is unreadable on, `low_contrast`, shown beside the field) and a
// PNG or JPEG logo sent as base64 (at most 100 KiB; the API checks the first bytes).
import { Button, ColorInput, Group, Stack, Text, TextInput } from "@mantine/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { ApiError, api, call, type Schemas } from "../../api/client";
import { useSession, useSignedIn } from "../../lib/session";
import { ConfirmButton } from "../ConfirmButton";
import { ErrorAlert } from "../ErrorAlert";
import { Time } from "../Time";

type Body = Schemas["UpdateBrandingBody"];
const LOGO_MAX_BYTES = 100 * 1024;

function base64Of(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function BrandingSettings() {
  const { environment, membership } = useSignedIn();
  const { withStepUp } = useSession();
  const queryClient = useQueryClient();
  const admin = membership.role === "business_admin";
  const branding = useQuery({ queryKey: [environment, "branding"], queryFn: () => call(api.GET("/v1/branding")) });
  const [name, setName] = useState("");
  const [color, setColor] = useState("");
  const [logo, setLogo] = useState<{ media_type: "image/png" | "image/jpeg"; data: string; size: number } | null>(null);
  const [logoError, setLogoError] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (branding.data === undefined) return;
    setName(branding.data.display_name ?? "");
    setColor(branding.data.brand_color ?? "");
  }, [branding.data]);

  const send = async (body: Body) => {
    setBusy(true);
    setSaved(false);
    setError(null);
    try {
      const answer = await withStepUp(() => call(api.PATCH("/v1/branding", { body })));
      queryClient.setQueryData([environment, "branding"], answer);
      setLogo(null);
      setSaved(true);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const save = (event: FormEvent) => {
    event.preventDefault();
    const body: Body = {
      display_name: name.trim() === "" ? null : name.trim(),
      brand_color: color.trim() === "" ? null : color.trim(),
    };
    if (logo !== null) body.logo = { media_type: logo.media_type, data: logo.data };
    void send(body);
  };
  const choose = async (file: File | undefined) => {
    setLogoError(null);
    setLogo(null);
    if (file === undefined) return;
    if (file.type !== "image/png" && file.type !== "image/jpeg") {
      setLogoError("Choose a PNG or JPEG image.");
      return;
    }
    if (file.size > LOGO_MAX_BYTES) {
      setLogoError(`The image is ${Math.ceil(file.size / 1024)} KiB; at most 100 KiB.`);
      return;
    }
    setLogo({ media_type: file.type, data: base64Of(new Uint8Array(await file.arrayBuffer())), size: file.size });
  };
  const fieldError = (field: string) =>
    error instanceof ApiError
      ? error.body.details
          ?.filter((d) => d.field === field || d.field.startsWith(`${field}.`))
          .map((d) => `${d.message} (${d.code})`)
          .join(" ") || undefined
      : undefined;

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
          value={name}
          maxLength={100}
          readOnly={!admin}
          error={fieldError("display_name")}
          onChange={(e) => setName(e.currentTarget.value)}
        />
        <ColorInput
          label="Brand colour"
          description="White text must stay readable on it."
          format="hex"
          withEyeDropper={false}
          value={color}
          readOnly={!admin}
          error={fieldError("brand_color")}
          onChange={setColor}
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
          {(logoError ?? fieldError("logo")) !== undefined && (
            <Text size="xs" c="red.9">
              {logoError ?? fieldError("logo")}
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
            <Button type="submit" loading={busy}>
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
                onConfirm={() => send({ logo: null })}
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
