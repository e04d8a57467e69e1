/**
 * Business constants of the product (spec §9). Units: money SAR, distance km, dimensions cm,
 * weight kg, durations in milliseconds unless the name says otherwise.
 */

/** Account types (spec §3): 1 shipper, 2 carrier, 3 broker (TMS). */
export const ACCOUNT_TYPE = { shipper: 1, carrier: 2, broker: 3 } as const;
export type AccountType = (typeof ACCOUNT_TYPE)[keyof typeof ACCOUNT_TYPE];
export const ACCOUNT_TYPES = [1, 2, 3] as const;
/**
 * Where a signed-in user of each account type lands (spec §2 route guard): carrier → load search,
 * shipper → my loads, broker → broker my loads. The web guard and the server's `/` redirect use it.
 */
export const ROLE_LANDING: Record<AccountType, string> = { 1: '/shippers/my-loads', 2: '/carriers/load-search', 3: '/brokers/my-loads' };

/**
 * Profile status (spec §3/§4). 1 pending, 2 approved (verified), 3 suspended, 4 deleted,
 * 5 rejected (documents rejected). New accounts start at 1 with isFirstTimeApproved=false.
 */
export const PROFILE_STATUS = { pending: 1, approved: 2, suspended: 3, deleted: 4, rejected: 5 } as const;
export type ProfileStatus = (typeof PROFILE_STATUS)[keyof typeof PROFILE_STATUS];

/** Radius options of the load search, km (spec §9). */
export const RADIUS_OPTIONS_KM = [10, 50, 100, 200, 300, 500, 1000] as const;
/** Pickup search radius options, km (spec §9). */
export const PICKUP_RADIUS_OPTIONS_KM = [50, 100, 150, 200] as const;
/**
 * What the load search accepts as its pickup radius: the radius options plus the spec's pickup
 * search radii (150 km was refused with a 400 before issue 7).
 */
export const SEARCH_PICKUP_RADIUS_KM = [10, 50, 100, 150, 200, 300, 500, 1000] as const;

export const LOAD_TYPES = ['FTL', 'LTL'] as const;
export type LoadType = (typeof LOAD_TYPES)[number];

/** Stop types (spec §3): 1 pickup (P, green), 2 destination/drop (D, red). */
export const STOP_TYPE = { pickup: 1, drop: 2 } as const;

/** Load and offer statuses and their allowed transitions: one state machine (spec §4). */
// (declared here, where the whole app already reads its constants; lifecycle.ts adds the transitions)
export const LOAD_STATUSES = ['posted', 'unposted', 'expired', 'unassigned', 'assigned', 'pending_bayan', 'completed', 'cancelled'] as const;
export type LoadStatus = (typeof LOAD_STATUSES)[number];
/** Statuses in which the owner may still edit or repost a load (an expired one is reposted with new dates). */
export const EDITABLE_LOAD_STATUSES: readonly LoadStatus[] = ['posted', 'unposted', 'expired'];
/** Booked and not finished: the shipment has an awarded carrier and runs. */
export const ACTIVE_LOAD_STATUSES: readonly LoadStatus[] = ['unassigned', 'assigned', 'pending_bayan'];
export const OFFER_STATUSES = ['pending', 'accepted', 'rejected', 'withdrawn', 'closed', 'cancelled'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

/**
 * my-loads tabs (spec §2 "My shipments"): posted, unposted, offers, active jobs, finished jobs,
 * the status tabs (unassigned, assigned, pending bayan, completed, cancelled, expired), bookmarks,
 * and `customers`: shipments my customers offered to me as their vendor (shipment type 2).
 */
export const MY_LOADS_TABS = [
  'posted',
  'unposted',
  'offers',
  'active',
  'finished',
  'unassigned',
  'assigned',
  'pending_bayan',
  'completed',
  'cancelled',
  'expired',
  'bookmarks',
  'customers',
] as const;
export type MyLoadsTab = (typeof MY_LOADS_TABS)[number];

export const OFFER_ACTIONS = ['accept', 'reject', 'counter'] as const;
export type OfferAction = (typeof OFFER_ACTIONS)[number];

/** Carrier source / shipment type (spec §3): marketplace 1, my vendors 2, own vehicle 3. */
export const SHIPMENT_TYPE = { marketplace: 1, vendor: 2, ownVehicle: 3 } as const;
export type ShipmentType = (typeof SHIPMENT_TYPE)[keyof typeof SHIPMENT_TYPE];
/** At most this many vendors per vendor shipment. */
export const SHIPMENT_VENDORS_MAX = 20;

/**
 * Book Now (issue 19): who may book a Book Now load at its posted price in one step — any
 * verified (approved) carrier or broker with a plan, or only the accounts of the shipper's own
 * verified vendors (modules/vendors).
 */
export const BOOK_NOW_FOR = ['verified', 'vendors'] as const;
export type BookNowFor = (typeof BOOK_NOW_FOR)[number];
/** Re-post detection (issue 19): a carrier's new load on the lane of a load it won within this many days is flagged. */
export const REPOST_WINDOW_DAYS = 14;

/** Payment method of a shipment (spec §3; also on the Bayan waybill). */
export const PAYMENT_METHODS = ['cash', 'bank_transfer', 'credit'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** Who pays the fare (spec §3 "paid by"). */
export const PAID_BY = ['sender', 'receiver'] as const;
/** Delivery type (spec §3): where the goods are taken from and to. */
export const DELIVERY_TYPES = ['door_to_door', 'door_to_port', 'port_to_door', 'port_to_port'] as const;
/** Payment terms, days after delivery (0 = on delivery). */
export const PAYMENT_TERMS_DAYS_MAX = 180;
/** Detention: free waiting hours at a stop before the hourly charge starts. */
export const DETENTION_FREE_HOURS_MAX = 72;
/**
 * Extend dates (POST /loads/:id/extend-dates): a pickup or delivery date may move later by at
 * most this many days beyond the load's original date (spec §9 leaves the range open).
 */
export const EXTEND_DATES_MAX_DAYS = 30;

export const LIMITS = {
  cargoLinesMax: 10,
  stopsMax: 10,
  commentsMax: 140,
  vendorNotesMax: 250,
  otpDigits: 4,
  otpTtlMs: 5 * 60 * 1000,
  otpMaxAttempts: 5,
  passwordMin: 6,
  passwordMax: 15,
  /** Times (stops) may not be earlier than now + this buffer (spec §5). */
  timeBufferMs: 60 * 60 * 1000,
  vehicleMaxWeightTons: 45,
  bayanMinWeightTons: 3.5,
  documentMaxBytes: 5 * 1024 * 1024,
  /** weight per item: at most 10 digits before the decimal point (spec §5). */
  weightPerItemMax: 9_999_999_999,
  pageSizeMax: 100,
} as const;

export const VAT_RATE = 0.15;
export const CURRENCY = 'SAR';
export const MILES_PER_KM = 0.621371;
export const MOBILE_BREAKPOINT_PX = 768;
export const LANGUAGES = ['en', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];
/** Support contacts shown in the Contact Us dialog (the spec withholds real values). */
export const SUPPORT = { email: 'support@masar.sa', phone: '+966920000000' } as const;
