// The device label a person sees in their list of sessions: browser and system without versions, a
// program's product name, or "Unknown device"; never the raw header.
import { describe, expect, it } from "vitest";
import { deviceLabelOf } from "../../src/modules/people/people.device.js";

describe("deviceLabelOf", () => {
  it.each([
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
      "Chrome on macOS",
    ],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91",
      "Edge on Windows",
    ],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0", "Firefox on Windows"],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1",
      "Safari on iOS",
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15",
      "Safari on macOS",
    ],
    [
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36",
      "Chrome on Android",
    ],
    [
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36",
      "Headless Chrome on Linux",
    ],
    [
      "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
      "Chrome on ChromeOS",
    ],
    ["Mozilla/5.0 (X11; Linux x86_64) SomeNewBrowser/1.0", "Browser on Linux"],
    ["Mozilla/5.0 (compatible)", "Browser"],
    ["curl/8.5.0", "curl"],
    ["payouts-client/0.0.1 node/20.11.0", "payouts-client"],
    ["", "Unknown device"],
    ["%%%", "Unknown device"],
    [null, "Unknown device"],
  ])("%s -> %s", (agent, label) => {
    expect(deviceLabelOf(agent)).toBe(label);
  });

  it("keeps a program's name short and to safe characters", () => {
    expect(deviceLabelOf(`${"a".repeat(100)}/1.0`)).toBe("Unknown device");
    expect(deviceLabelOf("<script>alert(1)</script>")).toBe("Unknown device");
  });
});
