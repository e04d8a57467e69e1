import type { Db } from '../../db/client.ts';
import type { SignedLinks } from '../../lib/signed-links.ts';
import type { SmsGateway } from '../../gateways/sms/sms.ts';
import type { WaslGateway } from '../../gateways/wasl/wasl.ts';
import type { FileLookups } from '../files/files.service.ts';

/**
 * What the fleet module's use cases may touch; each use case names its share with
 * `Pick<FleetDeps, …>`. The container builds it (container.ts).
 */
export interface FleetDeps {
  db: Db;
  /** Signs drivers' job links (purpose 'driver-job'). */
  links: SignedLinks;
  wasl: WaslGateway;
  /** Sends a driver's job link by SMS; absent → SMS_SEND_FAILED. */
  sms?: SmsGateway;
  /** Origin put before a job link's path in the SMS (e.g. https://masar.sa). */
  publicUrl?: string;
  log?: { error(o: unknown, m: string): void };
  /** The files module (insurance, images, Iqama, licence, photo): owned files checked and refs read inside the caller's transaction. */
  files: FleetFiles;
}

/** What the fleet module asks of the files module (injected by the container). */
export type FleetFiles = Pick<FileLookups, 'ownedFiles' | 'fileRefs'>;
