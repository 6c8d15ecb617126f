// Screening hits and the sanctions lists as the API shows them, and the requests that decide a hit or load a list.
import { type Static, Type } from "@sinclair/typebox";
import { nameString, nullable, stringEnum } from "../../platform/http/schema-types.js";
import { PageQuerySchema } from "../../platform/pagination/cursor.js";
import { LIST_FORMATS, LIST_IDS } from "./screening.lists.js";
import { SCREENING_HIT_STATUSES } from "./screening.schema.js";

const uuid = Type.String({ format: "uuid" });
const strings = (description: string) => Type.Array(Type.String(), { description });
const personSchema = (description: string) =>
  Type.Object(
    {
      api_key_id: nullable(Type.String({ format: "uuid", description: "The key; null from a dashboard session." })),
      membership_id: nullable(Type.String({ format: "uuid", description: "The member behind the key or session." })),
      user_id: nullable(Type.String({ format: "uuid" })),
    },
    { description },
  );
type Person = Static<ReturnType<typeof personSchema>>;
const nullablePerson = (description: string) =>
  Type.Unsafe<Person | null>({ ...personSchema(description), type: ["object", "null"] });

export const ScreeningHitSchema = Type.Object(
  {
    id: uuid,
    object: Type.Literal("screening_hit"),
    beneficiary_id: Type.String({ format: "uuid", description: "The Beneficiary whose name was found close to a listed one." }),
    status: stringEnum(SCREENING_HIT_STATUSES, {
      description:
        "`open` until an admin decides: `cleared` (a false positive: payouts go ahead) or `confirmed` (the Beneficiary stays blocked); `withdrawn` when a later screening no longer found it (the name changed, or the entry left the list).",
    }),
    score: Type.Number({
      minimum: 0,
      maximum: 1,
      description: "Name similarity, 0 to 1 (three decimals); hits are at or above the installation's threshold.",
    }),
    screened_name: Type.String({ description: "The Beneficiary's name(s) as screened." }),
    screened_country: nullable(Type.String({ description: "The Beneficiary's country as screened (ISO 3166-1 alpha-2)." })),
    matched_name: Type.String({ description: "The listed name (primary or alias) closest to the Beneficiary's." }),
    entry: Type.Object(
      {
        list_id: stringEnum(LIST_IDS, {
          description: "`ofac_sdn` (US OFAC SDN) or `eu_consolidated` (EU consolidated financial sanctions list).",
        }),
        ref: Type.String({ description: "The publisher's id: OFAC ent_num, EU logical id." }),
        kind: Type.String({ description: "`individual`, `entity`, `vessel`, `aircraft` or `other`." }),
        name: Type.String({ description: "The entry's primary name." }),
        aliases: strings("Its other names."),
        countries: strings("Countries the list gives (addresses, citizenship), ISO 3166-1 alpha-2."),
        programs: strings("Sanctions programs (OFAC) or regimes (EU)."),
        addresses: strings("Addresses, as the list gives them."),
      },
      { description: "The entry as it was when the hit was found." },
    ),
    triggered_by: nullablePerson(
      "Whose change of the Beneficiary was screened (its creation, or a change of its name or country); null for a list reload or a collection link. That person may not decide the hit.",
    ),
    decided_by: nullablePerson("Who cleared or confirmed it; null otherwise."),
    decided_at: nullable(Type.String({ format: "date-time" })),
    reason: nullable(Type.String({ description: "Why it was cleared or confirmed." })),
    created_at: Type.String({ format: "date-time" }),
    updated_at: Type.String({ format: "date-time" }),
  },
  { $id: "ScreeningHit" },
);
export type ScreeningHitBody = Static<typeof ScreeningHitSchema>;

export const ScreeningHitListQuerySchema = Type.Object(
  {
    ...PageQuerySchema,
    status: Type.Optional(stringEnum(SCREENING_HIT_STATUSES)),
    beneficiary_id: Type.Optional(Type.String({ format: "uuid", description: "Only this Beneficiary's hits." })),
  },
  { additionalProperties: false },
);
export type ScreeningHitListQuery = Static<typeof ScreeningHitListQuerySchema>;

export const ScreeningHitListSchema = Type.Object(
  { screening_hits: Type.Array(Type.Ref("ScreeningHit")), next_cursor: nullable(Type.String()) },
  { "x-component": "ScreeningHitList" },
);

export const ScreeningDecisionBodySchema = Type.Object(
  { reason: nameString(500, "Why (kept on each hit decided, in the audit log and, for a clearance, in the event).") },
  { "x-component": "ScreeningDecisionRequest", additionalProperties: false },
);
export type ScreeningDecisionBody = Static<typeof ScreeningDecisionBodySchema>;

export const ScreeningDecisionSchema = Type.Object(
  {
    beneficiary_id: uuid,
    screening_status: Type.String({ description: "The Beneficiary's screening status after the decision." }),
    hits: Type.Array(Type.Ref("ScreeningHit"), { description: "The hits this decision decided." }),
  },
  { "x-component": "ScreeningDecision" },
);
export type ScreeningDecisionBodyOut = Static<typeof ScreeningDecisionSchema>;

export const BeneficiaryParamsSchema = Type.Object({ id: Type.String({ format: "uuid" }) });
export const HitParamsSchema = Type.Object({ id: Type.String({ format: "uuid" }) });

// Operator routes -------------------------------------------------------------------------------------------------

export const ListParamsSchema = Type.Object({ listId: stringEnum(LIST_IDS) });

export const LoadListBodySchema = Type.Object(
  {
    files: Type.Array(
      Type.Object(
        {
          format: stringEnum(LIST_FORMATS, {
            description: "`ofac_sdn` (sdn.csv), `ofac_alt` (alt.csv), `ofac_add` (add.csv), `eu_csv` or `eu_xml`.",
          }),
          content_base64: Type.String({
            maxLength: 96 * 1024 * 1024,
            pattern: "^[A-Za-z0-9+/]*={0,2}$",
            contentEncoding: "base64",
            description:
              "The file's bytes as published (UTF-8), base64-encoded: the files carry line breaks and OFAC's end with a 0x1A byte, which JSON text fields here refuse.",
          }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 4 },
    ),
  },
  { "x-component": "LoadSanctionsListRequest", additionalProperties: false },
);
export type LoadListBody = Static<typeof LoadListBodySchema>;

export const SanctionsListSchema = Type.Object(
  {
    list_id: stringEnum(LIST_IDS),
    version: Type.Integer({ description: "Grows by one at every load that changed the list." }),
    entry_count: Type.Integer(),
    source: Type.String({ description: "`config` (SANCTIONS_LISTS at start) or `operator` (this route)." }),
    loaded_at: Type.String({ format: "date-time" }),
    changed: Type.Boolean({
      description: "False when the same files were loaded again (nothing changed, nobody is screened again).",
    }),
    rescreen_run_id: nullable(
      Type.String({ format: "uuid", description: "The run screening every Beneficiary again; null when nothing changed." }),
    ),
  },
  { "x-component": "SanctionsList" },
);
export type SanctionsListBody = Static<typeof SanctionsListSchema>;
