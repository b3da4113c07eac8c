import type { TransferRefusal } from '../../../../ports/file-transfers.js';

/** A refusal of the transfer data plane (uploaded chunks, downloads), with its HTTP status. */
export const refuse = (
  status: TransferRefusal['status'],
  code: TransferRefusal['code'],
  message: string,
  details?: Record<string, unknown>,
): TransferRefusal => ({
  status,
  code,
  message,
  ...(details ? { details } : {}),
});
