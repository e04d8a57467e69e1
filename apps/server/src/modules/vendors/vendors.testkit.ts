import type { VendorInput } from '@masar/shared';

let seq = 0;
/** A valid vendor body with an e-mail and phone unique within this test process. */
export function vendorBody(over: Partial<VendorInput> = {}): VendorInput {
  seq += 1;
  const n = seq + Math.floor(Math.random() * 100000) * 1000;
  return {
    userType: 'carrier',
    companyName: `Nakl Co ${n}`,
    vendorName: `Saad ${n}`,
    phone: `+9665${String(60000000 + (n % 40000000)).padStart(8, '0')}`,
    email: `vendor${n}@nakl.sa`,
    jobTitle: 'Fleet manager',
    officeLocations: [{ cityId: 1, address: 'King Fahd Rd' }],
    notes: 'Reliable on Riyadh–Dammam',
    crNumber: '1010123456',
    tlNumber: 'TL12345678',
    vatNumber: '300123456700003',
    paymentTerms: 'net_30',
    shipmentTypes: ['ftl', 'reefer'],
    regions: [1, 2],
    preferredLanguages: ['ar', 'en'],
    preferredContactMethod: 'whatsapp',
    numberOfTrucks: 12,
    numberOfTrailers: 10,
    fleetSize: 12,
    fleetTypes: ['flatbed_trailer'],
    equipmentTypes: ['reefer_trailer'],
    serviceArea: 'Central and Eastern regions',
    insurance: 'Tawuniya cargo cover to 2027',
    rateAgreement: 'Lane rates reviewed quarterly',
    pastExperience: '8 years',
    paymentHistory: 'On time',
    customsClearance: true,
    ...over,
  };
}
