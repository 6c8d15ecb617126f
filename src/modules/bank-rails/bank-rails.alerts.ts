// Where a bank rail delivers its payment files (and reads the bank's answers) is a control: changing it on a
// configured rail is refused to API keys, recorded and e-mailed to every admin (people.alerts.ts). Pure
// comparison here, so the configure use case keeps one local call.

/** The parts of a rail's delivery that decide where files go (the stored settings' `delivery`). */
export interface DeliveryTarget {
  readonly kind: string;
  readonly host: string | null;
  readonly port: number | null;
  readonly username: string | null;
  readonly hostKeyFingerprint: string | null;
  readonly outboundDirectory: string;
  readonly inboundDirectory: string;
}

const TARGET_FIELDS = [
  ["kind", "kind"],
  ["host", "host"],
  ["port", "port"],
  ["username", "username"],
  ["hostKeyFingerprint", "host_key_fingerprint"],
  ["outboundDirectory", "outbound_directory"],
  ["inboundDirectory", "inbound_directory"],
] as const;

/** The delivery fields (API names) that differ between the stored target and the new one; empty when none. */
export function changedDeliveryTarget(before: DeliveryTarget | undefined, after: DeliveryTarget): string[] {
  if (before === undefined) return [];
  return TARGET_FIELDS.filter(([field]) => (before[field] ?? null) !== (after[field] ?? null)).map(([, name]) => name);
}

/** The e-mail's sentence: from where to where, without any credential. */
export function describeTargetChange(rail: string, before: DeliveryTarget, after: DeliveryTarget): string {
  const where = (t: DeliveryTarget) =>
    t.kind === "sftp"
      ? `sftp://${t.username ?? ""}@${t.host ?? ""}:${t.port ?? 22}${t.outboundDirectory} (host key ${t.hostKeyFingerprint ?? "none"})`
      : `the local folder ${t.outboundDirectory}`;
  return `The ${rail.toUpperCase()} rail's payment files now go to ${where(after)} instead of ${where(before)}.`;
}
