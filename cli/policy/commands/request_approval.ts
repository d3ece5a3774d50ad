/**
 * `policy request-approval PACKAGE --rationale …`: files a review request.
 * The request approves nothing by itself (SPEC §17.1); an operator decides.
 *
 * @module
 */

import { clientFor } from "../client_for.ts";
import { ClientError, EXIT } from "../exit_codes.ts";
import type { Io } from "../io.ts";

/** Options of `request-approval`. */
export interface RequestApprovalOptions {
  package: string;
  rationale: string;
  version?: string;
  json: boolean;
  agentModel?: string;
  agentVersion?: string;
}

/** Runs `request-approval`; 0 when the server accepted the request. */
export async function requestApproval(options: RequestApprovalOptions, io: Io): Promise<number> {
  if (options.rationale.trim() === "") {
    throw new ClientError("usage", "--rationale must not be empty");
  }
  const { client } = await clientFor(io, {
    source: "check",
    agentModel: options.agentModel,
    agentVersion: options.agentVersion,
  });
  const receipt = await client.requestApproval(options);
  io.stdout(
    options.json
      ? JSON.stringify(receipt, null, 2) + "\n"
      : `${receipt.package}: ${receipt.message}. An operator decides in the ` +
        `registry workshop; until then the package keeps its current verdict.\n`,
  );
  return EXIT.OK;
}
