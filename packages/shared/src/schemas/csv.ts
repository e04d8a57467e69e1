import { z } from 'zod';
import { listOf, paginationQuery } from './common.ts';

/**
 * Bulk CSV import / export (spec §2 "CSV upload logs and failed entries with a fix option",
 * §3 "CSV upload log", §4 "CSV import log: processing, succeeded, failed", §5 "bulk upload
 * accepts CSV only"). Rows are validated with the same schemas as the forms (vendorInput,
 * driverInput, vehicleInput, trailerInput, createLoadBody); the columns below map CSV cells to
 * those schemas' fields. Templates carry English and Arabic headers; either is accepted.
 */
export const CSV_IMPORT_TYPES = ['vendors', 'drivers', 'vehicles', 'trailers', 'shipments'] as const;
export type CsvImportType = (typeof CSV_IMPORT_TYPES)[number];
export const CSV_EXPORT_TYPES = ['vendors', 'drivers', 'vehicles', 'trailers', 'loads'] as const;
export type CsvExportType = (typeof CSV_EXPORT_TYPES)[number];
/** processing while the background job runs; completed when every row was tried; failed when the file itself could not be processed. */
export const CSV_LOG_STATUSES = ['processing', 'completed', 'failed'] as const;

/**
 * How a cell becomes a field value: `text` as is, `number`/`int` parsed, `bool`
 * (yes/no/true/false/1/0/نعم/لا), `list` split on `;` (or `|`), `intList` the same as numbers,
 * `json` parsed JSON (office locations, stops, cargo), `plate` one string "1234 ا ب د".
 */
export type CsvCellKind = 'text' | 'number' | 'int' | 'bool' | 'list' | 'intList' | 'json' | 'plate';
export interface CsvColumn {
  /** Field of the form schema (dot path for nested fields, e.g. plate). */
  key: string;
  en: string;
  ar: string;
  kind: CsvCellKind;
  required?: boolean;
}

const c = (key: string, en: string, ar: string, kind: CsvCellKind = 'text', required = false): CsvColumn => ({ key, en, ar, kind, required });

/** Columns per type, in template order. */
export const CSV_COLUMNS: Record<CsvImportType, CsvColumn[]> = {
  vendors: [
    c('userType', 'User type', 'نوع المستخدم', 'text', true),
    c('companyName', 'Company name', 'اسم الشركة', 'text', true),
    c('vendorName', 'Vendor name', 'اسم المورد', 'text', true),
    c('phone', 'Phone', 'رقم الجوال', 'text', true),
    c('email', 'Email', 'البريد الإلكتروني', 'text', true),
    c('jobTitle', 'Job title', 'المسمى الوظيفي'),
    c('officeLocations', 'Office locations', 'مواقع المكاتب', 'json'),
    c('notes', 'Notes', 'ملاحظات'),
    c('crNumber', 'CR number', 'رقم السجل التجاري'),
    c('tlNumber', 'TL number', 'رقم رخصة النقل'),
    c('vatNumber', 'VAT number', 'الرقم الضريبي'),
    c('paymentTerms', 'Payment terms', 'شروط الدفع'),
    c('shipmentTypes', 'Shipment types', 'أنواع الشحنات', 'list'),
    c('regions', 'Regions', 'المناطق', 'intList'),
    c('preferredLanguages', 'Preferred languages', 'اللغات المفضلة', 'list'),
    c('preferredContactMethod', 'Preferred contact method', 'طريقة التواصل المفضلة'),
    c('numberOfTrucks', 'Number of trucks', 'عدد الشاحنات', 'int'),
    c('numberOfTrailers', 'Number of trailers', 'عدد المقطورات', 'int'),
    c('fleetSize', 'Fleet size', 'حجم الأسطول', 'int'),
    c('fleetTypes', 'Fleet types', 'أنواع الأسطول', 'list'),
    c('equipmentTypes', 'Equipment types', 'أنواع المعدات', 'list'),
    c('serviceArea', 'Service area', 'نطاق الخدمة'),
    c('insurance', 'Insurance', 'التأمين'),
    c('rateAgreement', 'Rate agreement', 'اتفاقية الأسعار'),
    c('pastExperience', 'Past experience', 'الخبرة السابقة'),
    c('paymentHistory', 'Payment history', 'سجل الدفع'),
    c('customsClearance', 'Saudi customs clearance', 'التخليص الجمركي السعودي', 'bool'),
  ],
  drivers: [
    c('salutation', 'Salutation', 'اللقب', 'text', true),
    c('firstName', 'First name', 'الاسم الأول', 'text', true),
    c('lastName', 'Last name', 'اسم العائلة', 'text', true),
    c('nationality', 'Nationality', 'الجنسية', 'text', true),
    c('dateOfBirth', 'Date of birth', 'تاريخ الميلاد', 'text', true),
    c('phone', 'Phone', 'رقم الجوال', 'text', true),
    c('managerName', 'Manager name', 'اسم المدير'),
    c('managerPhone', 'Manager phone', 'جوال المدير'),
    c('licenceNumber', 'Licence number', 'رقم الرخصة', 'text', true),
    c('driverIdNumber', 'Driver ID / Iqama', 'رقم الهوية / الإقامة', 'text', true),
    c('iqamaIssueCount', 'Iqama issue count', 'عدد مرات إصدار الإقامة', 'int'),
    c('companyCr', 'Company CR number', 'رقم السجل التجاري للشركة'),
    c('moiNumber', 'MOI number', 'رقم وزارة الداخلية'),
  ],
  vehicles: [
    c('vehicleType', 'Vehicle type', 'نوع المركبة', 'text', true),
    c('year', 'Year', 'سنة الصنع', 'int', true),
    c('make', 'Make', 'الشركة المصنعة', 'text', true),
    c('model', 'Model', 'الطراز', 'text', true),
    c('colour', 'Colour', 'اللون', 'text', true),
    c('plateType', 'Plate type', 'نوع اللوحة', 'int', true),
    c('plate', 'Plate number', 'رقم اللوحة', 'plate', true),
    c('registrationNumber', 'Registration number', 'رقم الاستمارة'),
    c('sequenceNumber', 'Sequence number', 'الرقم التسلسلي', 'text', true),
    c('imei', 'IMEI', 'رقم IMEI'),
    c('weightKg', 'Weight (kg)', 'الوزن (كجم)', 'number', true),
  ],
  trailers: [
    c('trailerType', 'Trailer type', 'نوع المقطورة', 'text', true),
    c('trailerNumber', 'Trailer number', 'رقم المقطورة', 'text', true),
    c('lengthCm', 'Length (cm)', 'الطول (سم)', 'number', true),
    c('breadthCm', 'Breadth (cm)', 'العرض (سم)', 'number', true),
    c('capacityKg', 'Capacity (kg)', 'الحمولة (كجم)', 'number', true),
    c('supportedVehicleTypes', 'Supported vehicle types', 'أنواع المركبات المدعومة', 'list'),
  ],
  shipments: [
    c('loadType', 'Load type', 'نوع الحمولة', 'text', true),
    c('equipmentType', 'Equipment type', 'نوع المعدة', 'text', true),
    c('stops', 'Stops', 'نقاط التوقف', 'json', true),
    c('cargo', 'Cargo', 'البضاعة', 'json', true),
    c('priceSar', 'Price (SAR)', 'السعر (ريال)', 'text', true),
    c('comments', 'Comments', 'تعليقات'),
    c('post', 'Post now', 'نشر الآن', 'bool'),
  ],
};

/** A CSV upload log (spec §3). Counts are rows; processing = total − succeeded − failed. */
export const csvLogSchema = z.object({
  id: z.uuid(),
  type: z.enum(CSV_IMPORT_TYPES),
  fileName: z.string().nullable(),
  status: z.enum(CSV_LOG_STATUSES),
  total: z.number().int(),
  processing: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  /** Why the whole file failed (localized), when status = failed. */
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CsvLog = z.infer<typeof csvLogSchema>;

/** A failed row: 1-based data row number (header excluded), raw cells keyed by field key, localized errors. */
export const csvFailedRowSchema = z.object({
  id: z.uuid(),
  rowNumber: z.number().int(),
  data: z.record(z.string(), z.string()),
  errors: z.array(z.object({ path: z.string(), message: z.string(), code: z.string() })),
});
export type CsvFailedRow = z.infer<typeof csvFailedRowSchema>;
export const csvLogDetailSchema = csvLogSchema.extend({ rows: z.array(csvFailedRowSchema), rowsTotal: z.number().int() });

export const csvLogsQuery = paginationQuery;
export const csvLogDetailQuery = paginationQuery.extend({ limit: z.coerce.number().int().min(1).max(500).default(100) });
export const csvLogListResponse = listOf(csvLogSchema);

/** POST /csv/import (multipart: `type` field, then the `file`) → 202 { id } of the log. */
export const csvImportTypeSchema = z.enum(CSV_IMPORT_TYPES);
export const csvImportAccepted = z.object({ id: z.uuid(), status: z.enum(CSV_LOG_STATUSES) });

/**
 * POST /csv/logs/:id/retry — the fix flow: resubmit edited failed rows (cells keyed by field
 * key, as in `data` of a failed row). Rows that now pass leave the failed list; the answer is
 * the updated log with the rows that still fail.
 */
export const csvRetryBody = z.object({
  rows: z
    .array(z.object({ rowId: z.uuid(), data: z.record(z.string(), z.string()) }))
    .min(1)
    .max(500),
});

/** ?lang=en|ar for templates and exports (defaults to the `language` header). */
export const csvLangQuery = z.object({ lang: z.enum(['en', 'ar']).optional() });
