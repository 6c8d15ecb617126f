// Every id in the service is a UUIDv7 from one generator: time-ordered (good index locality, stable
// pagination order) and a UUID as the spec requires.
import { validate as uuidValidate, v7 as uuidv7 } from "uuid";

export interface IdGenerator {
  newId(): string;
}

export const uuidV7Generator: IdGenerator = { newId: () => uuidv7() };

export function isUuid(value: string): boolean {
  return uuidValidate(value);
}
