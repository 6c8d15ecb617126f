// Every event a test records must match the `data` shape published for its type (src/platform/events/
// event-data.ts, the OpenAPI `webhooks` section). buildTestApp's close() runs this over the file's events,
// so a module that changes what it records without changing the contract fails its own tests.
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../src/platform/db/client.js";
import { EVENT_DATA_SCHEMAS } from "../../src/platform/events/event-data.js";
import type { EventType } from "../../src/platform/events/outbox.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
const validators = new Map(Object.entries(EVENT_DATA_SCHEMAS).map(([type, schema]) => [type, ajv.compile(schema)] as const));

export async function assertRecordedEventsMatchContract(db: Db): Promise<void> {
  const rows = await queryRows<{ id: string; type: EventType; data: unknown }>(db, sql`select id, type, data from events`);
  const problems: string[] = [];
  for (const row of rows) {
    const validate = validators.get(row.type);
    if (validate === undefined) {
      problems.push(`${row.type}: no published data shape`);
    } else if (!validate(row.data)) {
      problems.push(`${row.type} ${JSON.stringify(row.data)}: ${ajv.errorsText(validate.errors)}`);
    }
  }
  if (problems.length > 0) {
    throw new Error(`recorded events do not match the published event data shapes:\n${problems.slice(0, 10).join("\n")}`);
  }
}
