import { describe, expect, it } from "vitest";
import { maskedCorrectedData } from "../../../src/rails/bank-files/reason-codes.js";

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
