import { describe, expect, it } from "vitest";
import { achCorrectedFields, achCorrectionOf, maskedCorrectedData } from "../../../src/rails/bank-files/reason-codes.js";

describe("the corrected data of a notification of change, as shown", () => {
  it("masks account and identification numbers to their last four, reading each code's layout by position", () => {
    expect(maskedCorrectedData("C01", "987654321        ")).toBe("*****4321");
    expect(maskedCorrectedData("C02", "021000021")).toBe("021000021");
    expect(maskedCorrectedData("C03", "021000021   12345678901234567")).toBe("021000021 *************4567");
    expect(maskedCorrectedData("C05", "32")).toBe("32");
    expect(maskedCorrectedData("C06", `${"55512345".padEnd(17)}   32`)).toBe("****2345 32");
    expect(maskedCorrectedData("C07", `021000021${"55512345".padEnd(17)}37`)).toBe("021000021 ****2345 37");
    expect(maskedCorrectedData("C09", "ID-00012345")).toBe("*******2345");
    expect(maskedCorrectedData("C01", "123")).toBe("123");
  });
});

describe("the correction a notification of change asks for, unmasked (kept encrypted, applied with one call)", () => {
  it("reads each code's layout into the account details it corrects", () => {
    expect(achCorrectionOf("C01", "987654321        ")).toEqual({ accountNumber: "987654321" });
    expect(achCorrectionOf("C02", "011000015")).toEqual({ routingNumber: "011000015" });
    expect(achCorrectionOf("C03", "011000015   12345678901234567")).toEqual({
      routingNumber: "011000015",
      accountNumber: "12345678901234567",
    });
    expect(achCorrectionOf("C05", "32")).toEqual({ accountType: "savings" });
    expect(achCorrectionOf("C06", `${"55512345".padEnd(17)}   22`)).toEqual({
      accountNumber: "55512345",
      accountType: "checking",
    });
    expect(achCorrectionOf("C07", `011000015${"55512345".padEnd(17)}32`)).toEqual({
      routingNumber: "011000015",
      accountNumber: "55512345",
      accountType: "savings",
    });
    // Nothing an account holds, or data that is not what the layout says: nothing to apply.
    expect(achCorrectionOf("C09", "ID-00012345")).toBeNull();
    expect(achCorrectionOf("C05", "99")).toBeNull();
    expect(achCorrectionOf("C02", "02100002")).toBeNull();
    expect(achCorrectedFields("C07")).toEqual(["routing_number", "account_number", "account_type"]);
    expect(achCorrectedFields("C13")).toEqual(["other"]);
  });
});
