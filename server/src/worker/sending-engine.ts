import { CampaignSender, type CampaignSourceDeps } from '../modules/campaigns/campaign-sender';
import { DeliveryWorker, type WorkerDeps } from '../modules/sending/delivery-worker';
import { TransactionalLanes } from '../modules/transactional/transactional-lanes';

export type { SenderSettings } from '../modules/sending/sender-settings';

export type SenderDeps = WorkerDeps & CampaignSourceDeps;

/**
 * A worker's sending engine: the one delivery loop (delivery-worker.ts) serving its two claim sources in every
 * lane round — the campaign batches (campaign-sender.ts), then the transactional streams
 * (transactional/transactional-lanes.ts, asked again TRANSACTIONAL_RECHECK_MS after an empty claim) — with the
 * same relays, rate limiters, leases and signers. The composition root: the only sending file naming the sources.
 */
export class SendingEngine extends DeliveryWorker {
  readonly campaigns: CampaignSender;
  readonly transactional: TransactionalLanes;

  constructor(deps: SenderDeps) {
    super(deps);
    this.campaigns = new CampaignSender(this.context, deps);
    this.transactional = new TransactionalLanes({
      ...this.context,
      signers: deps.signers ?? [],
      signingFor: deps.signingFor,
    });
    this.serve(this.campaigns, this.transactional);
  }
}
