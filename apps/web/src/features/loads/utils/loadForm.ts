import { LIMITS, STOP_TYPE, type CreateLoadBody, type Load, type LoadType } from '@masar/shared';
import { isoToPicker, pickerToIso } from '../../../components/format';

export interface StopValues {
  key: string;
  stopType: 1 | 2;
  cityId: number | null;
  /** Riyadh wall-clock "YYYY-MM-DD HH:mm:ss" as the date picker gives it. */
  date: string | null;
  address: string;
}
export interface CargoValues {
  key: string;
  goodsType: string | null;
  length: number | string;
  width: number | string;
  height: number | string;
  quantity: number | string;
  weightPerItem: number | string;
  stackable: boolean;
  adr: boolean;
}
export interface LoadFormValues {
  loadType: LoadType;
  equipmentType: string | null;
  stops: StopValues[];
  cargo: CargoValues[];
  price: number | string;
  comments: string;
}

let seq = 0;
export const newKey = () => `k${Date.now().toString(36)}${(seq++).toString(36)}`;

export const emptyStop = (stopType: 1 | 2): StopValues => ({ key: newKey(), stopType, cityId: null, date: null, address: '' });
export const emptyCargo = (): CargoValues => ({
  key: newKey(),
  goodsType: null,
  length: '',
  width: '',
  height: '',
  quantity: 1,
  weightPerItem: '',
  stackable: false,
  adr: false,
});

export const emptyLoadForm = (): LoadFormValues => ({
  loadType: 'FTL',
  equipmentType: null,
  stops: [emptyStop(STOP_TYPE.pickup), emptyStop(STOP_TYPE.drop)],
  cargo: [emptyCargo()],
  price: '',
  comments: '',
});

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
    })),
    cargo: v.cargo.map((c) => ({
      goodsType: c.goodsType ?? '',
      length: num(c.length) as number,
      width: num(c.width) as number,
      height: num(c.height) as number,
      quantity: num(c.quantity) as number,
      weightPerItem: num(c.weightPerItem) as number,
      stackable: c.stackable,
      adr: c.adr,
    })),
    price: num(v.price) as number,
    ...(comments ? { comments } : {}),
    post,
  };
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
    })),
    cargo: l.cargo.map((c) => ({
      key: newKey(),
      goodsType: c.goodsType,
      length: c.length,
      width: c.width,
      height: c.height,
      quantity: c.quantity,
      weightPerItem: c.weightPerItem,
      stackable: c.stackable,
      adr: c.adr,
    })),
    price: l.price,
    comments: l.comments ?? '',
  };
}

export const canAddCargo = (v: LoadFormValues) => v.cargo.length < LIMITS.cargoLinesMax;
export const canAddStop = (v: LoadFormValues) => v.stops.length < LIMITS.stopsMax;
