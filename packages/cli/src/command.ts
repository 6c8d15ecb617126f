// What every command's action receives: the global options, the output (text or --json), the client built from
// the key and address (option, environment, then the file `payouts login` wrote) and a way to raise the exit
// code. main.ts and events.ts both register commands with it; it imports neither of them.
import { createClient, type PayoutsClient } from "@payout-orchestration/client";
import type { Command } from "commander";
import { configFile, DEFAULT_BASE_URL, readConfig } from "./config.js";
import { CliError, createOutput, type Output } from "./output.js";

export interface GlobalOptions {
  json?: boolean;
  apiKey?: string;
  baseUrl?: string;
}

export interface Context {
  readonly out: Output;
  readonly options: GlobalOptions;
  client(): Promise<PayoutsClient>;
  baseUrl(): Promise<string>;
  apiKey(): Promise<string>;
  setExitCode(code: number): void;
}

/** Turns a command's action, written against a Context, into the function commander calls. */
export type ActionWrapper = <A extends unknown[]>(
  run: (ctx: Context, ...args: A) => Promise<void>,
) => (...args: unknown[]) => Promise<void>;

/**
 * The action wrapper of one program: each action gets a Context for the command commander ran (its options
 * merged with the program's). `raiseExitCode` receives every code an action sets; the program exits with the
 * highest.
 */
export function createActionWrapper(env: NodeJS.ProcessEnv, raiseExitCode: (code: number) => void): ActionWrapper {
  const context = (command: Command): Context => {
    const options = command.optsWithGlobals() as GlobalOptions;
    const file = configFile(env);
    const stored = readConfig(file);
    const baseUrl = async () => options.baseUrl ?? env.PAYOUTS_BASE_URL ?? (await stored).base_url ?? DEFAULT_BASE_URL;
    const apiKey = async () => {
      const key = options.apiKey ?? env.PAYOUTS_API_KEY ?? (await stored).api_key;
      if (!key) throw new CliError("missing_api_key", "no API key: run `payouts login`, set PAYOUTS_API_KEY or pass --api-key");
      return key;
    };
    return {
      out: createOutput(options.json === true),
      options,
      baseUrl,
      apiKey,
      client: async () => createClient({ baseUrl: await baseUrl(), apiKey: await apiKey() }),
      setExitCode: raiseExitCode,
    };
  };
  return <A extends unknown[]>(run: (ctx: Context, ...args: A) => Promise<void>) =>
    async (...args: unknown[]) => {
      // commander passes the arguments, then the options, then the command itself.
      const command = args[args.length - 1] as Command;
      await run(context(command), ...(args.slice(0, -2) as A));
    };
}
