// Where a bank rail delivers its payment files (and reads the bank's answers) is a control: changing it on a
// configured rail is refused to API keys, recorded and e-mailed to every admin (people.alerts.ts). Which fields
// changed is `deliveryTargetChange` (bank-rails.service.ts); the e-mail's sentence is written here.

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

/** The e-mail's sentence: from where to where, without any credential. */
export function describeTargetChange(rail: string, before: DeliveryTarget, after: DeliveryTarget): string {
  const where = (t: DeliveryTarget) =>
    t.kind === "sftp"
      ? `sftp://${t.username ?? ""}@${t.host ?? ""}:${t.port ?? 22}${t.outboundDirectory} (host key ${t.hostKeyFingerprint ?? "none"})`
      : `the local folder ${t.outboundDirectory}`;
  return `The ${rail.toUpperCase()} rail's payment files now go to ${where(after)} instead of ${where(before)}.`;
}
