import {
  LIMITS,
  SHIPMENT_TYPE,
  STOP_TYPE,
  type BookNowFor,
  type CreateLoadBody,
  type DELIVERY_TYPES,
  type Load,
  type LoadType,
  type PAID_BY,
  type PaymentMethod,
  type ShipmentType,
  type StopAddressInput,
} from '@masar/shared';
import { isoToPicker, pickerToIso } from '../../../components/format';

export interface StopValues {
  key: string;
  stopType: 1 | 2;
  cityId: number | null;
  /** Riyadh wall-clock "YYYY-MM-DD HH:mm:ss" as the date picker gives it. */
  date: string | null;
  address: string;
  /** The structured (national) address; sent only when a field is filled. */
  details: AddressValues;
}
export interface AddressValues {
  buildingNumber: string;
  streetName: string;
  district: string;
  region: string;
  zipCode: string;
  additionalNumber: string;
  unitNumber: string;
  businessName: string;
}
export interface CargoValues {
  key: string;
  goodsType: string | null;
  lengthCm: number | string;
  widthCm: number | string;
  heightCm: number | string;
  quantity: number | string;
  weightPerItemKg: number | string;
  stackable: boolean;
  adr: boolean;
}
export interface LoadFormValues {
  loadType: LoadType;
  equipmentType: string | null;
  stops: StopValues[];
  cargo: CargoValues[];
  /** SAR as typed (the NumberInput gives a number or a partial string); sent as a decimal string. */
  priceSar: number | string;
  comments: string;
  /** End of the pickup window, picker wall-clock; null: none. */
  pickupLatest: string | null;
  /** "HH:MM" or '' (none); both of a pair or neither. */
  pickupHoursFrom: string;
  pickupHoursTo: string;
  dropHoursFrom: string;
  dropHoursTo: string;
  paymentMethod: PaymentMethod | null;
  paidBy: (typeof PAID_BY)[number] | null;
  paymentTermsDays: number | string;
  detentionFreeHours: number | string;
  detentionRateSar: number | string;
  /** Most detention charged per stop, SAR (issue 50); '' for none. */
  detentionCapSar: number | string;
  deliveryType: (typeof DELIVERY_TYPES)[number] | null;
  deliveryTo: string;
  tradable: boolean;
  /** Payment protection (issue 50): price + VAT held in escrow from booking. */
  paymentProtection: boolean;
  /** Book Now at the posted price (issue 19) and who may. */
  bookNow: boolean;
  bookNowFor: BookNowFor;
  shipmentType: ShipmentType;
  vendorIds: string[];
}

let seq = 0;
export const newKey = () => `k${Date.now().toString(36)}${(seq++).toString(36)}`;

export const emptyAddress = (): AddressValues => ({
  buildingNumber: '',
  streetName: '',
  district: '',
  region: '',
  zipCode: '',
  additionalNumber: '',
  unitNumber: '',
  businessName: '',
});
export const emptyStop = (stopType: 1 | 2): StopValues => ({ key: newKey(), stopType, cityId: null, date: null, address: '', details: emptyAddress() });
export const emptyCargo = (): CargoValues => ({
  key: newKey(),
  goodsType: null,
  lengthCm: '',
  widthCm: '',
  heightCm: '',
  quantity: 1,
  weightPerItemKg: '',
  stackable: false,
  adr: false,
});

export const emptyLoadForm = (): LoadFormValues => ({
  loadType: 'FTL',
  equipmentType: null,
  stops: [emptyStop(STOP_TYPE.pickup), emptyStop(STOP_TYPE.drop)],
  cargo: [emptyCargo()],
  priceSar: '',
  comments: '',
  pickupLatest: null,
  pickupHoursFrom: '',
  pickupHoursTo: '',
  dropHoursFrom: '',
  dropHoursTo: '',
  paymentMethod: null,
  paidBy: null,
  paymentTermsDays: '',
  detentionFreeHours: '',
  detentionRateSar: '',
  detentionCapSar: '',
  deliveryType: null,
  deliveryTo: '',
  tradable: false,
  paymentProtection: false,
  bookNow: false,
  bookNowFor: 'verified',
  shipmentType: SHIPMENT_TYPE.marketplace,
  vendorIds: [],
});

/** The structured address as the API takes it: undefined when every field is empty; optional fields left out when empty. */
function addressToBody(d: AddressValues): StopAddressInput | undefined {
  // the region alone is no address: the form fills it from the city
  if (!Object.entries(d).some(([k, x]) => k !== 'region' && x.trim())) return undefined;
  const opt = (k: 'additionalNumber' | 'unitNumber' | 'businessName') => (d[k].trim() ? { [k]: d[k].trim() } : {});
  return {
    buildingNumber: d.buildingNumber,
    streetName: d.streetName,
    district: d.district,
    region: d.region,
    zipCode: d.zipCode,
    ...opt('additionalNumber'),
    ...opt('unitNumber'),
    ...opt('businessName'),
  };
}
const hoursToBody = (from: string, to: string) => (from || to ? { from, to } : undefined);

const num = (v: number | string): number | undefined => (v === '' || v === null || v === undefined ? undefined : typeof v === 'number' ? v : Number(v));

/** Form values → POST /loads body. Empty fields stay undefined so the shared schema names them. */
export function formToBody(v: LoadFormValues, post: boolean): CreateLoadBody {
  const comments = v.comments.trim();
  return {
    loadType: v.loadType,
    equipmentType: v.equipmentType ?? '',
    stops: v.stops.map((s) => ({
      stopType: s.stopType,
      cityId: s.cityId as number,
      date: pickerToIso(s.date),
      ...(s.address.trim() ? { address: s.address.trim() } : {}),
      ...(addressToBody(s.details) ? { addressDetails: addressToBody(s.details) } : {}),
    })),
    cargo: v.cargo.map((c) => ({
      goodsType: c.goodsType ?? '',
      lengthCm: num(c.lengthCm) as number,
      widthCm: num(c.widthCm) as number,
      heightCm: num(c.heightCm) as number,
      quantity: num(c.quantity) as number,
      weightPerItemKg: num(c.weightPerItemKg) as number,
      stackable: c.stackable,
      adr: c.adr,
    })),
    // String(number) gives the digits the user typed (shortest round trip): no float rounding.
    priceSar: v.priceSar === '' ? '' : String(v.priceSar),
    ...(comments ? { comments } : {}),
    post,
    ...(v.pickupLatest ? { pickupLatest: pickerToIso(v.pickupLatest) } : {}),
    ...(hoursToBody(v.pickupHoursFrom, v.pickupHoursTo) ? { pickupHours: hoursToBody(v.pickupHoursFrom, v.pickupHoursTo) } : {}),
    ...(hoursToBody(v.dropHoursFrom, v.dropHoursTo) ? { dropHours: hoursToBody(v.dropHoursFrom, v.dropHoursTo) } : {}),
    ...(v.paymentMethod ? { paymentMethod: v.paymentMethod } : {}),
    ...(v.paidBy ? { paidBy: v.paidBy } : {}),
    ...(num(v.paymentTermsDays) !== undefined ? { paymentTermsDays: num(v.paymentTermsDays) } : {}),
    ...(num(v.detentionFreeHours) !== undefined ? { detentionFreeHours: num(v.detentionFreeHours) } : {}),
    ...(v.detentionRateSar !== '' ? { detentionRateSar: String(v.detentionRateSar) } : {}),
    ...(v.detentionCapSar !== '' ? { detentionCapSar: String(v.detentionCapSar) } : {}),
    ...(v.deliveryType ? { deliveryType: v.deliveryType } : {}),
    ...(v.deliveryTo.trim() ? { deliveryTo: v.deliveryTo.trim() } : {}),
    tradable: v.tradable,
    // an own-vehicle shipment pays no one: never protected
    paymentProtection: v.paymentProtection && v.shipmentType !== SHIPMENT_TYPE.ownVehicle,
    // an own-vehicle shipment is booked at once: never Book Now
    bookNow: v.bookNow && v.shipmentType !== SHIPMENT_TYPE.ownVehicle,
    ...(v.bookNow && v.shipmentType !== SHIPMENT_TYPE.ownVehicle ? { bookNowFor: v.bookNowFor } : {}),
    shipmentType: v.shipmentType,
    ...(v.shipmentType === SHIPMENT_TYPE.vendor ? { vendorIds: v.vendorIds } : {}),
  };
}

/**
 * Did the edit change the origin, destination (any stop city, in order) or the equipment? Saving
 * such a change deletes tracking and all offer and booking activity (spec §4): the form asks first.
 */
export function laneOrEquipmentChanged(before: LoadFormValues, after: LoadFormValues): boolean {
  const cities = (v: LoadFormValues) => v.stops.map((s) => s.cityId).join(',');
  return cities(before) !== cities(after) || before.equipmentType !== after.equipmentType;
}

/** A stored load → form values (edit). */
export function loadToForm(l: Load): LoadFormValues {
  return {
    loadType: l.loadType,
    equipmentType: l.equipmentType,
    stops: l.stops.map((s) => ({
      key: newKey(),
      stopType: s.stopType === STOP_TYPE.drop ? 2 : 1,
      cityId: s.cityId,
      date: isoToPicker(s.date),
      address: s.address ?? '',
      details: { ...emptyAddress(), ...(s.addressDetails ?? {}) },
    })),
    cargo: l.cargo.map((c) => ({
      key: newKey(),
      goodsType: c.goodsType,
      lengthCm: c.lengthCm,
      widthCm: c.widthCm,
      heightCm: c.heightCm,
      quantity: c.quantity,
      weightPerItemKg: c.weightPerItemKg,
      stackable: c.stackable,
      adr: c.adr,
    })),
    priceSar: l.priceSar,
    comments: l.comments ?? '',
    pickupLatest: l.pickupLatest ? isoToPicker(l.pickupLatest) : null,
    pickupHoursFrom: l.pickupHours?.from ?? '',
    pickupHoursTo: l.pickupHours?.to ?? '',
    dropHoursFrom: l.dropHours?.from ?? '',
    dropHoursTo: l.dropHours?.to ?? '',
    paymentMethod: l.paymentMethod,
    paidBy: l.paidBy,
    paymentTermsDays: l.paymentTermsDays ?? '',
    detentionFreeHours: l.detentionFreeHours ?? '',
    detentionRateSar: l.detentionRateSar ?? '',
    detentionCapSar: l.detentionCapSar ?? '',
    deliveryType: l.deliveryType,
    deliveryTo: l.deliveryTo ?? '',
    tradable: l.tradable,
    paymentProtection: l.paymentProtection,
    bookNow: l.bookNow,
    bookNowFor: l.bookNowFor ?? 'verified',
    shipmentType: (l.shipmentType as ShipmentType) ?? SHIPMENT_TYPE.marketplace,
    vendorIds: l.vendorIds,
  };
}

export const canAddCargo = (v: LoadFormValues) => v.cargo.length < LIMITS.cargoLinesMax;
export const canAddStop = (v: LoadFormValues) => v.stops.length < LIMITS.stopsMax;
