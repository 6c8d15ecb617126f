// A Beneficiary's identity as the API holds it, read-only: the edit dialog is EditIdentity.tsx.
import { Card, SimpleGrid, Text, Title } from "@mantine/core";
import type { Beneficiary } from "../../hooks/api/beneficiaries/types";
import { Time } from "../Time";

export function IdentityCard({ b }: { b: Beneficiary }) {
  const address = b.postal_address;
  const rows: [string, string | null][] = [
    ["Type", b.beneficiary_type === "person" ? "Person" : "Business"],
    ["E-mail", b.email],
    ["Legal name", b.name],
    ["Nickname", b.nickname],
    ["Phone", b.phone],
    ...(b.beneficiary_type === "person"
      ? ([
          ["Date of birth", b.date_of_birth],
          ["Country of residence", b.country_of_residence],
        ] as [string, string | null][])
      : ([
          ["Business name", b.business_name],
          ["Country of incorporation", b.country_of_incorporation],
          ["Registration number", b.registration_number],
        ] as [string, string | null][])),
    ["Tax id", b.tax_id],
    [
      "Postal address",
      address === null
        ? null
        : [address.line1, address.line2, address.postal_code, address.city, address.state, address.country]
            .filter(Boolean)
            .join(", "),
    ],
    [
      "Compliance",
      b.compliance_status === "compliant" ? "Acknowledged" : b.compliance_status === "pending" ? "Not acknowledged" : "Suspended",
    ],
    ["Enrollment with the rail", b.enrollment_status],
    ["Id", b.id],
  ];
  return (
    <Card withBorder>
      <Title order={2} size="h3" mb="sm">
        Identity
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
        {rows.map(([label, value]) => (
          <div key={label}>
            <Text size="xs" c="dimmed">
              {label}
            </Text>
            <Text size="sm" style={{ wordBreak: "break-all" }}>
              {value ?? "—"}
            </Text>
          </div>
        ))}
        <div>
          <Text size="xs" c="dimmed">
            Created
          </Text>
          <Text size="sm">
            <Time value={b.created_at} />
          </Text>
        </div>
      </SimpleGrid>
    </Card>
  );
}
