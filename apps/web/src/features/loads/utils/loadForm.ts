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
}

let seq = 0;
export const newKey = () => `k${Date.now().toString(36)}${(seq++).toString(36)}`;

export const emptyStop = (stopType: 1 | 2): StopValues => ({ key: newKey(), stopType, cityId: null, date: null, address: '' });
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
  };
}

export const canAddCargo = (v: LoadFormValues) => v.cargo.length < LIMITS.cargoLinesMax;
export const canAddStop = (v: LoadFormValues) => v.stops.length < LIMITS.stopsMax;
