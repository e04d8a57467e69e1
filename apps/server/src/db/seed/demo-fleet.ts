import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  ACCOUNT_TYPE,
  driverInput,
  initialWaslStatus,
  PLATE_LETTER_VALUES,
  trailerInput,
  vehicleInput,
  vendorInput,
  type DriverInput,
  type TrailerInput,
  type VehicleInput,
  type VendorInput,
  type WaslStatus,
} from '@masar/shared';
import type { Config } from '../../config.ts';
import { newId } from '../../lib/ids.ts';
import { queryRows } from '../../lib/sql.ts';
import * as fleetRepo from '../../modules/fleet/fleet.repository.ts';
import * as vendorsRepo from '../../modules/vendors/vendors.repository.ts';
import { vendorRow } from '../../modules/vendors/vendors.service.ts';
import { driverRow, vehicleRow } from '../../modules/fleet/fleet.service.ts';
import type { Db, Tx } from '../client.ts';
import { prng } from './prng.ts';

/**
 * Demo fleets and vendors (README "Demo accounts"): on a fresh database the demo carrier sees a
 * working fleet (tractors with linked trailers and drivers, so "vehicles for assignment" is not
 * empty; busy and free trucks; one suspended; WASL verified / not verified / not submitted), the
 * demo broker a small fleet, trusted drivers and its transport vendors, the demo shipper its
 * vendors and one own vehicle.
 *
 * Every input goes through the shared zod schemas of the fleet and vendor forms (plate letters,
 * IMEI, Iqama, MOI, CR, VAT, TL, nationality, age ≥ 18, trailer ranges…) and the same database
 * checks as the fleet and vendor services (equipment type exists, plate and MOI unique on the
 * platform); rows are written with the modules' repositories, one transaction per account.
 *
 * WASL: a vehicle starts `not_required` under 3.5 t and `not_submitted` above
 * (initialWaslStatus); the demo marks some heavy vehicles `verified` or `not_verified` as if the
 * WASL gateway had answered, and never touches the light ones.
 *
 * Phones are in the +966 50 00x xxxx demo block and e-mails under demo.masar.sa, so no real
 * person or company is contacted; company names are invented.
 *
 * Deterministic (fixed data, identifiers from a seeded PRNG) and idempotent: an account that
 * already has any vehicle, trailer, driver or vendor (deleted ones included) is left alone.
 */

type Ids = Record<1 | 2 | 3, string>;
type VehicleIn = z.output<typeof vehicleInput>;
type DriverIn = z.output<typeof driverInput>;
type State = 'active' | 'suspended';

interface DriverSpec {
  input: Omit<DriverInput, 'driverIdNumber' | 'licenceNumber' | 'moiNumber' | 'companyCr' | 'managerName' | 'managerPhone'>;
  state?: State;
  trusted?: boolean;
  ageDays: number;
}
interface TrailerSpec {
  input: TrailerInput;
  state?: State;
  ageDays: number;
}
interface VehicleSpec {
  input: Omit<VehicleInput, 'plate' | 'sequenceNumber' | 'imei' | 'registrationNumber' | 'plateType'>;
  /** index into the account's drivers / trailers / vendors */
  driver?: number;
  trailer?: number;
  vendor?: number;
  wasl?: Extract<WaslStatus, 'verified' | 'not_verified'>;
  state?: State;
  busy?: boolean;
  ageDays: number;
}
interface VendorSpec {
  input: Omit<VendorInput, 'crNumber' | 'vatNumber' | 'tlNumber'>;
  /** CR prefix of the city of registration (1010 Riyadh, 4030 Jeddah, 2050 Dammam…). */
  crCity: string;
  /** A fixed CR (a vendor that is another demo account), instead of crCity + 6 digits. */
  cr?: string;
  request?: boolean;
  ageDays: number;
}
interface AccountPlan {
  seed: number;
  /** Plate type: 2 public transport (for hire), 3 private transport (own goods). */
  plateType: number;
  cr: string;
  manager: { name: string; phone: string };
  vendors: VendorSpec[];
  drivers: DriverSpec[];
  trailers: TrailerSpec[];
  vehicles: VehicleSpec[];
}

const CURTAIN = 'Curtain-side semi-trailer';
const REEFER = 'Refrigerated semi-trailer';
const FLATBED = 'Flatbed semi-trailer';
const BOX = 'Closed box semi-trailer';
const LOWBED = 'Lowbed semi-trailer';

/** Demo carrier (+966500000002), Qahtani Transport Co., Riyadh. */
const CARRIER: AccountPlan = {
  seed: 2,
  plateType: 2,
  cr: '1010482731',
  manager: { name: 'Fahad Al-Qahtani', phone: '+966500000002' },
  vendors: [],
  drivers: [
    {
      input: {
        salutation: 'mr',
        firstName: 'Abdullah',
        lastName: 'Al-Otaibi',
        nationality: 'saudi',
        dateOfBirth: '1984-03-17',
        phone: '+966500010101',
        iqamaIssueCount: 3,
      },
      ageDays: 410,
    },
    {
      input: {
        salutation: 'mr',
        firstName: 'Khalid',
        lastName: 'Al-Shammari',
        nationality: 'saudi',
        dateOfBirth: '1990-11-02',
        phone: '+966500010102',
        iqamaIssueCount: 2,
      },
      ageDays: 380,
    },
    {
      input: {
        salutation: 'mr',
        firstName: 'Muhammad Imran',
        lastName: 'Khan',
        nationality: 'pakistani',
        dateOfBirth: '1981-07-25',
        phone: '+966500010103',
        iqamaIssueCount: 6,
      },
      ageDays: 350,
    },
    {
      input: {
        salutation: 'mr',
        firstName: 'Mohammed Rafeeq',
        lastName: 'Kunhi',
        nationality: 'indian',
        dateOfBirth: '1986-01-09',
        phone: '+966500010104',
        iqamaIssueCount: 4,
      },
      ageDays: 300,
    },
    {
      input: {
        salutation: 'mr',
        firstName: 'Rafiqul',
        lastName: 'Islam',
        nationality: 'bangladeshi',
        dateOfBirth: '1992-05-30',
        phone: '+966500010105',
        iqamaIssueCount: 2,
      },
      ageDays: 240,
    },
    {
      input: {
        salutation: 'mr',
        firstName: 'Mahmoud',
        lastName: 'Abdel-Fattah',
        nationality: 'egyptian',
        dateOfBirth: '1979-09-14',
        phone: '+966500010106',
        iqamaIssueCount: 8,
      },
      ageDays: 200,
    },
    {
      input: {
        salutation: 'mr',
        firstName: 'Osman',
        lastName: 'Babiker',
        nationality: 'sudanese',
        dateOfBirth: '1988-12-21',
        phone: '+966500010107',
        iqamaIssueCount: 3,
      },
      ageDays: 120,
    },
    // a new hire, not yet on a truck
    {
      input: {
        salutation: 'mr',
        firstName: 'Salem',
        lastName: 'Bawazir',
        nationality: 'yemeni',
        dateOfBirth: '1995-04-08',
        phone: '+966500010108',
        iqamaIssueCount: 1,
      },
      ageDays: 12,
    },
  ],
  trailers: [
    {
      input: { trailerType: CURTAIN, trailerNumber: 'QTC-T101', lengthCm: 1360, breadthCm: 250, capacityKg: 25000, supportedVehicleTypes: ['curtain_trailer'] },
      ageDays: 400,
    },
    {
      input: { trailerType: REEFER, trailerNumber: 'QTC-R201', lengthCm: 1340, breadthCm: 250, capacityKg: 22000, supportedVehicleTypes: ['reefer_trailer'] },
      ageDays: 370,
    },
    {
      input: { trailerType: FLATBED, trailerNumber: 'QTC-F301', lengthCm: 1250, breadthCm: 250, capacityKg: 30000, supportedVehicleTypes: ['flatbed_trailer'] },
      ageDays: 330,
    },
    {
      input: { trailerType: BOX, trailerNumber: 'QTC-B401', lengthCm: 1360, breadthCm: 250, capacityKg: 25000, supportedVehicleTypes: ['box_trailer'] },
      ageDays: 280,
    },
    {
      input: { trailerType: CURTAIN, trailerNumber: 'QTC-T102', lengthCm: 1360, breadthCm: 250, capacityKg: 25000, supportedVehicleTypes: ['curtain_trailer'] },
      ageDays: 60,
    },
    // a spare lowbed, not hitched
    {
      input: { trailerType: LOWBED, trailerNumber: 'QTC-L501', lengthCm: 1300, breadthCm: 300, capacityKg: 50000, supportedVehicleTypes: ['lowbed'] },
      ageDays: 30,
    },
  ],
  vehicles: [
    {
      input: { vehicleType: 'curtain_trailer', year: 2021, make: 'Mercedes-Benz', model: 'Actros 1845', colour: 'White', weightKg: 18000 },
      driver: 0,
      trailer: 0,
      wasl: 'verified',
      ageDays: 400,
    },
    {
      input: { vehicleType: 'reefer_trailer', year: 2022, make: 'Volvo', model: 'FH 460', colour: 'White', weightKg: 19000 },
      driver: 1,
      trailer: 1,
      wasl: 'verified',
      ageDays: 370,
    },
    {
      input: { vehicleType: 'flatbed_trailer', year: 2019, make: 'MAN', model: 'TGS 40.440', colour: 'Blue', weightKg: 26000 },
      driver: 2,
      trailer: 2,
      wasl: 'verified',
      busy: true,
      ageDays: 330,
    },
    {
      input: { vehicleType: 'box_trailer', year: 2020, make: 'Scania', model: 'R 450', colour: 'Red', weightKg: 18500 },
      driver: 3,
      trailer: 3,
      wasl: 'verified',
      ageDays: 280,
    },
    {
      input: { vehicleType: 'lorry', year: 2018, make: 'Isuzu', model: 'FVR 34', colour: 'White', weightKg: 11000 },
      driver: 4,
      wasl: 'verified',
      busy: true,
      ageDays: 240,
    },
    { input: { vehicleType: 'dyna', year: 2023, make: 'Toyota', model: 'Dyna 300', colour: 'White', weightKg: 7500 }, driver: 5, ageDays: 150 },
    {
      input: { vehicleType: 'curtain_trailer', year: 2024, make: 'Hino', model: '700 SH', colour: 'Silver', weightKg: 20000 },
      driver: 6,
      trailer: 4,
      ageDays: 60,
    },
    // off the road: WASL refused it
    {
      input: { vehicleType: 'tipper', year: 2015, make: 'Mercedes-Benz', model: 'Actros 3341 K', colour: 'Yellow', weightKg: 33000 },
      wasl: 'not_verified',
      state: 'suspended',
      ageDays: 500,
    },
  ],
};

/** Demo broker (+966500000003), Ghamdi Logistics (TMS), Jeddah. */
const BROKER: AccountPlan = {
  seed: 3,
  plateType: 2,
  cr: '4030219874',
  manager: { name: 'Omar Al-Ghamdi', phone: '+966500000003' },
  vendors: [
    {
      crCity: '1010',
      ageDays: 420,
      input: {
        userType: 'carrier',
        companyName: 'Al-Sahari Transport Co.',
        vendorName: 'Nasser Al-Sahari',
        phone: '+966500020101',
        email: 'ops.sahari@demo.masar.sa',
        jobTitle: 'Operations Manager',
        officeLocations: [
          { cityId: 3, address: 'King Fahd Road, Al Olaya' },
          { cityId: 13, address: 'Second Industrial City' },
        ],
        notes: 'Reliable on Riyadh–Dammam; books return loads a day ahead.',
        paymentTerms: 'net_30',
        shipmentTypes: ['ftl', 'ltl'],
        regions: [1, 5],
        preferredLanguages: ['ar', 'en'],
        preferredContactMethod: 'whatsapp',
        numberOfTrucks: 42,
        numberOfTrailers: 38,
        fleetSize: 45,
        fleetTypes: ['curtain_trailer', 'flatbed_trailer', 'lorry'],
        equipmentTypes: ['curtain_trailer', 'flatbed_trailer'],
        serviceArea: 'Central and Eastern regions',
        insurance: 'Goods-in-transit cover, SAR 500,000 per load, valid to Dec 2027',
        rateAgreement: 'Lane rates reviewed quarterly',
        pastExperience: '15 years on the Riyadh–Dammam corridor',
        paymentHistory: 'Paid on time',
        customsClearance: false,
      },
    },
    {
      crCity: '4030',
      ageDays: 360,
      input: {
        userType: 'carrier',
        companyName: 'Hijaz Reefer Logistics Est.',
        vendorName: 'Majed Al-Zahrani',
        phone: '+966500020102',
        email: 'dispatch.hijazreefer@demo.masar.sa',
        jobTitle: 'Dispatcher',
        officeLocations: [
          { cityId: 18, address: 'Al Khumrah, South Jeddah' },
          { cityId: 6, address: 'Al Awali' },
        ],
        notes: 'Chilled and frozen; trailers with temperature loggers.',
        paymentTerms: 'net_15',
        shipmentTypes: ['ftl', 'reefer'],
        regions: [2, 3],
        preferredLanguages: ['ar', 'en', 'ur'],
        preferredContactMethod: 'phone',
        numberOfTrucks: 24,
        numberOfTrailers: 20,
        fleetSize: 26,
        fleetTypes: ['reefer_trailer', 'reefer_truck'],
        equipmentTypes: ['reefer_trailer', 'reefer_truck'],
        serviceArea: 'Jeddah, Makkah, Madinah and Taif',
        insurance: 'Cargo and reefer breakdown cover to Jun 2027',
        rateAgreement: 'Fixed rates Jeddah–Riyadh, spot elsewhere',
        pastExperience: '9 years of food and pharma distribution',
        paymentHistory: 'Paid on time',
        customsClearance: false,
      },
    },
    {
      crCity: '2050',
      ageDays: 300,
      input: {
        userType: 'carrier',
        companyName: 'Eastern Gulf Haulage Co.',
        vendorName: 'Hussain Al-Dossary',
        phone: '+966500020103',
        email: 'bookings.easterngulf@demo.masar.sa',
        jobTitle: 'Commercial Manager',
        officeLocations: [
          { cityId: 13, address: 'King Abdulaziz Port Road' },
          { cityId: 31, address: 'Prince Turki Street, Al Yarmouk' },
        ],
        notes: 'Port containers and ADR tankers; customs broker in house.',
        paymentTerms: 'net_45',
        shipmentTypes: ['ftl', 'container', 'dangerous_goods'],
        regions: [5, 1],
        preferredLanguages: ['ar', 'en', 'hi'],
        preferredContactMethod: 'email',
        numberOfTrucks: 60,
        numberOfTrailers: 75,
        fleetSize: 60,
        fleetTypes: ['container_40', 'container_20', 'tanker'],
        equipmentTypes: ['container_40', 'container_20', 'tanker'],
        serviceArea: 'Dammam port to Riyadh dry port and Jubail',
        insurance: 'ADR liability and cargo cover to Mar 2027',
        rateAgreement: 'Per-container tariff',
        pastExperience: '20 years of port haulage',
        paymentHistory: 'One late invoice in 2025',
        customsClearance: true,
      },
    },
    {
      crCity: '1131',
      ageDays: 210,
      input: {
        userType: 'carrier',
        companyName: 'Qassim Fleet Transport Est.',
        vendorName: 'Sultan Al-Harbi',
        phone: '+966500020104',
        email: 'qassimfleet@demo.masar.sa',
        jobTitle: 'Owner',
        officeLocations: [{ cityId: 11, address: 'Al Khaleej Road, Industrial Area' }],
        notes: 'Dates and grain in season (Aug–Oct).',
        paymentTerms: 'on_delivery',
        shipmentTypes: ['ftl', 'bulk'],
        regions: [4, 1],
        preferredLanguages: ['ar'],
        preferredContactMethod: 'whatsapp',
        numberOfTrucks: 14,
        numberOfTrailers: 12,
        fleetSize: 14,
        fleetTypes: ['sided_trailer', 'curtain_trailer'],
        equipmentTypes: ['sided_trailer', 'curtain_trailer'],
        serviceArea: 'Qassim, Riyadh and Hail',
        paymentHistory: 'Paid on time',
        customsClearance: false,
      },
    },
    {
      crCity: '5850',
      ageDays: 150,
      input: {
        userType: 'carrier',
        companyName: 'Asir Highlands Transport',
        vendorName: 'Ali Al-Asmari',
        phone: '+966500020105',
        email: 'asirhighlands@demo.masar.sa',
        jobTitle: 'Fleet Supervisor',
        officeLocations: [{ cityId: 15, address: 'King Abdulaziz Road, Al Mansak' }],
        notes: 'Mountain roads to Abha, Khamis Mushayt and Najran; small lorries.',
        paymentTerms: 'net_30',
        shipmentTypes: ['ltl', 'ftl'],
        regions: [6, 10, 11],
        preferredLanguages: ['ar', 'bn'],
        preferredContactMethod: 'sms',
        numberOfTrucks: 9,
        numberOfTrailers: 0,
        fleetSize: 9,
        fleetTypes: ['lorry', 'dyna'],
        equipmentTypes: ['lorry', 'dyna'],
        serviceArea: 'Asir, Jazan and Najran',
        customsClearance: false,
      },
    },
    {
      crCity: '3550',
      ageDays: 3,
      request: true, // sent through the share link, waiting for review
      input: {
        userType: 'carrier',
        companyName: 'Tabuk Northern Cargo Co.',
        vendorName: 'Fawaz Al-Balawi',
        phone: '+966500020106',
        email: 'northerncargo@demo.masar.sa',
        jobTitle: 'Managing Director',
        officeLocations: [
          { cityId: 1, address: 'Prince Fahd bin Sultan Road' },
          { cityId: 14, address: 'Al Uyun Industrial Area' },
        ],
        notes: 'Flatbeds and lowbeds for NEOM-area projects.',
        paymentTerms: 'net_60',
        shipmentTypes: ['ftl', 'oversized'],
        regions: [7, 3, 13],
        preferredLanguages: ['ar', 'en'],
        preferredContactMethod: 'phone',
        numberOfTrucks: 18,
        numberOfTrailers: 22,
        fleetSize: 18,
        fleetTypes: ['flatbed_trailer', 'lowbed'],
        equipmentTypes: ['flatbed_trailer', 'lowbed'],
        serviceArea: 'Tabuk, Madinah and the north-west',
        customsClearance: true,
      },
    },
  ],
  drivers: [
    {
      input: {
        salutation: 'mr',
        firstName: 'Turki',
        lastName: 'Al-Dosari',
        nationality: 'saudi',
        dateOfBirth: '1987-02-11',
        phone: '+966500030101',
        iqamaIssueCount: 2,
      },
      trusted: true,
      ageDays: 330,
    },
    {
      input: {
        salutation: 'mr',
        firstName: 'Asif',
        lastName: 'Mehmood',
        nationality: 'pakistani',
        dateOfBirth: '1983-10-19',
        phone: '+966500030102',
        iqamaIssueCount: 7,
      },
      trusted: true,
      ageDays: 290,
    },
    {
      input: {
        salutation: 'mr',
        firstName: 'Ahmed',
        lastName: 'Saeed',
        nationality: 'egyptian',
        dateOfBirth: '1991-06-03',
        phone: '+966500030103',
        iqamaIssueCount: 3,
      },
      ageDays: 90,
    },
  ],
  trailers: [
    {
      input: { trailerType: CURTAIN, trailerNumber: 'GHL-T01', lengthCm: 1360, breadthCm: 250, capacityKg: 25000, supportedVehicleTypes: ['curtain_trailer'] },
      ageDays: 320,
    },
    {
      input: { trailerType: REEFER, trailerNumber: 'GHL-R01', lengthCm: 1340, breadthCm: 250, capacityKg: 22000, supportedVehicleTypes: ['reefer_trailer'] },
      ageDays: 280,
    },
  ],
  vehicles: [
    {
      input: { vehicleType: 'curtain_trailer', year: 2020, make: 'Mercedes-Benz', model: 'Actros 1848', colour: 'White', weightKg: 18000 },
      driver: 0,
      trailer: 0,
      wasl: 'verified',
      ageDays: 320,
    },
    // a reefer tractor on long-term hire from a vendor
    {
      input: { vehicleType: 'reefer_trailer', year: 2021, make: 'Volvo', model: 'FH 500', colour: 'White', weightKg: 19000, source: 'vendor' },
      vendor: 1,
      driver: 1,
      trailer: 1,
      wasl: 'verified',
      ageDays: 280,
    },
    { input: { vehicleType: 'dyna', year: 2022, make: 'Mitsubishi', model: 'Canter', colour: 'White', weightKg: 7500 }, driver: 2, ageDays: 90 },
  ],
};

/** Demo shipper (+966500000001), Najd Foods Trading, Riyadh: vendors and one own delivery pickup. */
const SHIPPER: AccountPlan = {
  seed: 1,
  plateType: 3,
  cr: '1010337215',
  manager: { name: 'Sara Al-Harbi', phone: '+966500000001' },
  vendors: [
    {
      crCity: '1010',
      ageDays: 380,
      input: {
        userType: 'carrier',
        companyName: 'Najd Cold Chain Transport',
        vendorName: 'Bandar Al-Subaie',
        phone: '+966500040101',
        email: 'najdcoldchain@demo.masar.sa',
        jobTitle: 'Account Manager',
        officeLocations: [{ cityId: 3, address: 'Al Sulay, Second Industrial City' }],
        notes: 'Our main reefer partner for Riyadh distribution.',
        paymentTerms: 'net_30',
        shipmentTypes: ['reefer', 'ltl', 'ftl'],
        regions: [1, 4],
        preferredLanguages: ['ar', 'en'],
        preferredContactMethod: 'whatsapp',
        numberOfTrucks: 30,
        numberOfTrailers: 12,
        fleetSize: 30,
        fleetTypes: ['reefer_truck', 'reefer_trailer'],
        equipmentTypes: ['reefer_truck', 'reefer_trailer'],
        serviceArea: 'Riyadh and Qassim',
        insurance: 'Cargo cover to Dec 2026',
        paymentHistory: 'Paid on time',
        customsClearance: false,
      },
    },
    {
      crCity: '4030',
      ageDays: 260,
      input: {
        userType: 'carrier',
        companyName: 'Red Sea Cargo Movers Est.',
        vendorName: 'Yasser Baeshen',
        phone: '+966500040102',
        email: 'redseacargo@demo.masar.sa',
        jobTitle: 'Sales Manager',
        officeLocations: [{ cityId: 18, address: 'Al Madinah Road, Al Rawdah' }],
        notes: 'Imports from Jeddah Islamic Port to our Riyadh warehouse.',
        paymentTerms: 'net_45',
        shipmentTypes: ['ftl', 'container'],
        regions: [2, 1],
        preferredLanguages: ['ar', 'en'],
        preferredContactMethod: 'email',
        numberOfTrucks: 35,
        numberOfTrailers: 40,
        fleetSize: 35,
        fleetTypes: ['container_40', 'curtain_trailer'],
        equipmentTypes: ['container_40', 'curtain_trailer'],
        serviceArea: 'Jeddah port to Riyadh',
        customsClearance: true,
      },
    },
    {
      crCity: '4650',
      ageDays: 170,
      input: {
        userType: 'carrier',
        companyName: 'Al-Madinah Trucking Co.',
        vendorName: 'Ibrahim Al-Juhani',
        phone: '+966500040103',
        email: 'madinahtrucking@demo.masar.sa',
        jobTitle: 'Operations Manager',
        officeLocations: [{ cityId: 14, address: 'King Abdullah Road, Al Aziziyah' }],
        paymentTerms: 'on_delivery',
        shipmentTypes: ['ftl', 'ltl'],
        regions: [3],
        preferredLanguages: ['ar'],
        preferredContactMethod: 'phone',
        numberOfTrucks: 11,
        numberOfTrailers: 8,
        fleetSize: 11,
        fleetTypes: ['box_trailer', 'lorry'],
        equipmentTypes: ['box_trailer', 'lorry'],
        serviceArea: 'Madinah and Yanbu',
        customsClearance: false,
      },
    },
    {
      crCity: '4030',
      cr: BROKER.cr, // the demo broker
      ageDays: 100,
      input: {
        userType: 'tms',
        companyName: 'Ghamdi Logistics (TMS)',
        vendorName: 'Omar Al-Ghamdi',
        phone: '+966500000003',
        email: 'broker@demo.masar.sa',
        jobTitle: 'General Manager',
        officeLocations: [{ cityId: 18, address: 'Prince Sultan Road, Al Zahra' }],
        notes: 'Books overflow loads with their carrier network.',
        paymentTerms: 'net_30',
        shipmentTypes: ['ftl', 'reefer'],
        regions: [2, 1, 5],
        preferredLanguages: ['ar', 'en'],
        preferredContactMethod: 'whatsapp',
        serviceArea: 'Nationwide',
        customsClearance: false,
      },
    },
  ],
  drivers: [
    {
      input: {
        salutation: 'mr',
        firstName: 'Sunil',
        lastName: 'Kumar',
        nationality: 'indian',
        dateOfBirth: '1985-08-27',
        phone: '+966500050101',
        iqamaIssueCount: 5,
      },
      trusted: true,
      ageDays: 200,
    },
  ],
  trailers: [],
  vehicles: [
    // under 3.5 t: WASL not required
    { input: { vehicleType: 'pickup', year: 2023, make: 'Toyota', model: 'Hilux', colour: 'White', weightKg: 2810 }, driver: 0, ageDays: 200 },
  ],
};

const DAY = 86_400_000;

/** Identifiers already taken in this run (plates and MOI numbers are unique platform-wide). */
interface Taken {
  plates: Set<string>;
  mois: Set<string>;
}

export interface DemoFleetCounts {
  vehicles: number;
  trailers: number;
  drivers: number;
  vendors: number;
}

/**
 * Seed the demo accounts' fleets and vendors (see the file comment). Returns how many rows it
 * added (all zero when every account already had some). `_config` keeps the seeds' signature.
 */
export async function seedDemoFleet(db: Db, _config: Pick<Config, never>, ids: Ids): Promise<DemoFleetCounts> {
  const counts: DemoFleetCounts = { vehicles: 0, trailers: 0, drivers: 0, vendors: 0 };
  const taken: Taken = { plates: new Set(), mois: new Set() };
  const plans: [string, AccountPlan][] = [
    [ids[ACCOUNT_TYPE.carrier], CARRIER],
    [ids[ACCOUNT_TYPE.broker], BROKER],
    [ids[ACCOUNT_TYPE.shipper], SHIPPER],
  ];
  for (const [ownerId, plan] of plans) {
    if (!ownerId || (await hasFleetOrVendors(db, ownerId))) continue;
    const n = await db.transaction((tx) => seedAccount(tx, ownerId, plan, taken));
    for (const k of Object.keys(counts) as (keyof DemoFleetCounts)[]) counts[k] += n[k];
  }
  return counts;
}

async function hasFleetOrVendors(db: Db, ownerId: string) {
  const rows = await queryRows(
    db,
    sql`select 1 from vehicles where owner_id = ${ownerId}
        union all select 1 from trailers where owner_id = ${ownerId}
        union all select 1 from drivers where owner_id = ${ownerId}
        union all select 1 from vendors where owner_id = ${ownerId}
        limit 1`,
  );
  return rows.length > 0;
}

async function seedAccount(tx: Tx, ownerId: string, plan: AccountPlan, taken: Taken): Promise<DemoFleetCounts> {
  const rnd = prng(20261122 + plan.seed);
  const digits = (n: number, first = '123456789') =>
    first[Math.floor(rnd() * first.length)] + Array.from({ length: n - 1 }, () => Math.floor(rnd() * 10)).join('');
  const letter = () => PLATE_LETTER_VALUES[Math.floor(rnd() * PLATE_LETTER_VALUES.length)];
  const now = Date.now();
  const at = (ageDays: number) => {
    const d = new Date(now - ageDays * DAY);
    return { createdAt: d, updatedAt: d };
  };

  // ---------- vendors ----------
  const vendorIds: string[] = [];
  for (const v of plan.vendors) {
    const input = vendorInput.parse({
      ...v.input,
      crNumber: v.cr ?? v.crCity + digits(6, '0123456789'),
      vatNumber: `3${digits(9)}00003`,
      tlNumber: `TL${digits(8)}`,
    });
    const row = { ...vendorRow(ownerId, input, v.request ? 'request_submitted' : 'verified', v.request ? 'invite' : 'owner'), ...at(v.ageDays) };
    const clash = await vendorsRepo.contactTaken(tx, ownerId, input.email, input.phone);
    if (clash.email || clash.phone) throw new Error(`demo vendor ${input.companyName}: contact already used`);
    await vendorsRepo.insertVendors(tx, [row]);
    vendorIds.push(row.id);
  }

  // ---------- drivers ----------
  const driverIds: string[] = [];
  const driverRows: fleetRepo.NewDriver[] = [];
  for (const d of plan.drivers) {
    const saudi = d.input.nationality === 'saudi';
    let moi = digits(10);
    while (taken.mois.has(moi) || (await fleetRepo.moiTaken(tx, moi))) moi = digits(10);
    taken.mois.add(moi);
    const b: DriverIn = driverInput.parse({
      ...d.input,
      // national ID (1…) for Saudis, Iqama (2…) for residents
      driverIdNumber: (saudi ? '1' : '2') + digits(9, '0123456789'),
      licenceNumber: digits(10),
      moiNumber: moi,
      companyCr: plan.cr,
      managerName: plan.manager.name,
      managerPhone: plan.manager.phone,
    });
    if (await fleetRepo.driverIdTaken(tx, ownerId, b.driverIdNumber)) throw new Error(`demo driver ${b.firstName}: id number already used`);
    const id = newId();
    driverIds.push(id);
    driverRows.push({ ...driverRow(ownerId, b), id, photoFileId: null, state: d.state ?? 'active', ...at(d.ageDays) });
  }
  await fleetRepo.insertDrivers(tx, driverRows);
  for (const [i, d] of plan.drivers.entries()) if (d.trusted) await fleetRepo.addTrusted(tx, ownerId, driverIds[i]);

  // ---------- trailers ----------
  const trailerIds: string[] = [];
  const trailerRows: fleetRepo.NewTrailer[] = [];
  for (const t of plan.trailers) {
    const b = trailerInput.parse(t.input);
    if (await fleetRepo.trailerNumberTaken(tx, ownerId, b.trailerNumber)) throw new Error(`demo trailer ${b.trailerNumber}: number already used`);
    const id = newId();
    trailerIds.push(id);
    trailerRows.push({ id, ownerId, ...b, state: t.state ?? 'active', ...at(t.ageDays) });
  }
  await fleetRepo.insertTrailers(tx, trailerRows);

  // ---------- vehicles ----------
  const vehicleRows: fleetRepo.NewVehicle[] = [];
  for (const v of plan.vehicles) {
    if (!(await fleetRepo.equipmentExists(tx, v.input.vehicleType))) throw new Error(`demo vehicle: unknown equipment type ${v.input.vehicleType}`);
    let plate = { digits: digits(4), left: letter(), middle: letter(), right: letter() };
    const key = (p: typeof plate) => `${p.digits}${p.left}${p.middle}${p.right}`;
    while (taken.plates.has(key(plate)) || (await fleetRepo.plateTaken(tx, plate.digits, `${plate.left}${plate.middle}${plate.right}`)))
      plate = { digits: digits(4), left: letter(), middle: letter(), right: letter() };
    taken.plates.add(key(plate));
    const b: VehicleIn = vehicleInput.parse({
      ...v.input,
      plateType: plan.plateType,
      plate,
      registrationNumber: digits(9),
      sequenceNumber: digits(9),
      imei: `35${digits(13, '0123456789')}`,
      vendorId: v.vendor === undefined ? undefined : vendorIds[v.vendor],
      driverId: v.driver === undefined ? undefined : driverIds[v.driver],
      trailerId: v.trailer === undefined ? undefined : trailerIds[v.trailer],
    });
    const initial = initialWaslStatus(b.weightKg);
    // WASL answers only for vehicles that need it (3.5 t and over)
    const waslStatus = v.wasl && initial !== 'not_required' ? v.wasl : initial;
    vehicleRows.push({
      ...vehicleRow(ownerId, b),
      waslStatus,
      state: v.state ?? 'active',
      // a suspended vehicle is never on a job
      availability: v.busy && v.state !== 'suspended' ? 'busy' : 'free',
      ...at(v.ageDays),
    });
  }
  await fleetRepo.insertVehicles(tx, vehicleRows);

  return { vehicles: vehicleRows.length, trailers: trailerRows.length, drivers: driverRows.length, vendors: vendorIds.length };
}
