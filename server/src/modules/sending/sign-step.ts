import { type DkimSigner, signChain } from './dkim/dkim-signer';
import type { DkimSigningPool } from './dkim/signing-pool';
import type { WireMessage } from './transport';

/** Built messages that share their DKIM signers (one From domain): the unit the sign step works on. */
export interface SigningGroup {
  signers: DkimSigner[];
  wire: WireMessage[];
}

/**
 * The sign step of the pipeline: each group's messages signed in place — on the signing pool's threads, all at
 * once (ADR 0027), or here without a pool. If the pool fails (a thread died), they are signed here instead: a
 * message is never sent unsigned.
 */
export async function signGroups(
  groups: readonly SigningGroup[],
  pool: DkimSigningPool | undefined,
  onPoolFailure: (error: unknown) => void,
): Promise<void> {
  for (const { signers, wire } of groups) {
    if (signers.length === 0 || wire.length === 0) continue;
    let signed: Buffer[];
    if (!pool) signed = wire.map((m) => signChain(signers, m.raw));
    else {
      try {
        signed = await pool.signAll(
          signers,
          wire.map((m) => m.raw),
        );
      } catch (error) {
        onPoolFailure(error);
        signed = wire.map((m) => signChain(signers, m.raw));
      }
    }
    wire.forEach((m, i) => {
      m.raw = signed[i] as Buffer;
    });
  }
}
