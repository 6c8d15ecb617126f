// The identity fields a Beneficiary needs by default (README, configuration table): what a Business gets
// when it sets neither IDENTITY_REQUIRED_PERSON nor IDENTITY_REQUIRED_BUSINESS.
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";

describe("identity fields required by default", () => {
  it("a person needs a first name, a last name and a country of residence", () => {
    expect(loadConfig({}).identityRequirements.person).toEqual(["first_name", "last_name", "country_of_residence"]);
  });

  it("a business needs its name and its country of incorporation", () => {
    expect(loadConfig({}).identityRequirements.business).toEqual(["business_name", "country_of_incorporation"]);
  });

  it("a configured list replaces the default", () => {
    const config = loadConfig({ IDENTITY_REQUIRED_PERSON: "first_name,last_name,date_of_birth" });
    expect(config.identityRequirements.person).toEqual(["first_name", "last_name", "date_of_birth"]);
    expect(config.identityRequirements.business).toEqual(["business_name", "country_of_incorporation"]);
  });
});
