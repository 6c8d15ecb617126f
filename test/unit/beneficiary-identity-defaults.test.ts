// The identity fields a Beneficiary needs by default (README, configuration table): what a Business gets
// when it sets neither IDENTITY_REQUIRED_PERSON nor IDENTITY_REQUIRED_BUSINESS.
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { identityRequirementsOf } from "../../src/modules/beneficiaries/index.js";

const identityRequirements = (env: Record<string, string>) => identityRequirementsOf(loadConfig(env).identityRequired);

describe("identity fields required by default", () => {
  it("a person needs a first name, a last name and a country of residence", () => {
    expect(identityRequirements({}).person).toEqual(["first_name", "last_name", "country_of_residence"]);
  });

  it("a business needs its name and its country of incorporation", () => {
    expect(identityRequirements({}).business).toEqual(["business_name", "country_of_incorporation"]);
  });

  it("a configured list replaces the default", () => {
    const requirements = identityRequirements({ IDENTITY_REQUIRED_PERSON: "first_name,last_name,date_of_birth" });
    expect(requirements.person).toEqual(["first_name", "last_name", "date_of_birth"]);
    expect(requirements.business).toEqual(["business_name", "country_of_incorporation"]);
  });
});
