import { apiClient, DEMO } from './helpers';

/**
 * The demo accounts have no favourites, blocks, team, saved cards or saved addresses: the issue 8
 * screens would show only their empty states. This gives the demo shipper and carrier one or two
 * of each through the API, as a user would make them, so the accessibility and mobile checks look
 * at real rows:
 * - the broker invites the shipper and the carrier to its team (the account page's invitation);
 * - shipper and carrier favourite each other and block the broker (with a reason);
 * - each invites two colleagues, saves two cards (one is the renewal card) and an address.
 * The broker is not used by these checks, so its block hides nothing they open.
 */
export async function seedAccountArea(base: string) {
  const { call, signInToken } = apiClient(() => base);
  const [shipper, carrier, broker] = await Promise.all([signInToken(DEMO.shipper), signInToken(DEMO.carrier), signInToken(DEMO.broker)]);
  const id = async (token: string) => (await call<{ id: string }>('GET', '/accountDetails', token)).id;
  const ids = { shipper: await id(shipper), carrier: await id(carrier), broker: await id(broker) };
  // before the shipper and carrier own a team: an owner with open members cannot be invited
  await call('POST', '/account/team', broker, { phone: DEMO.shipper, name: 'Noura Alharbi', role: 'dispatcher' });
  await call('POST', '/account/team', broker, { phone: DEMO.carrier, name: 'Fahad Alotaibi', role: 'viewer' });
  const [riyadh] = (await call<{ items: { id: number }[] }>('GET', '/cities?search=Riyadh&limit=1', shipper)).items;
  const mine = [
    { token: shipper, other: ids.carrier, phones: ['+966551230001', '+966551230002'] },
    { token: carrier, other: ids.shipper, phones: ['+966551230003', '+966551230004'] },
  ];
  for (const { token, other, phones } of mine) {
    await call('POST', '/account/favourite', token, { userId: other });
    await call('POST', '/account/blocked', token, { userId: ids.broker, reason: 'Late payments on two loads' });
    await call('POST', '/account/team', token, { phone: phones[0], name: 'Sara Alqahtani', role: 'admin' });
    await call('POST', '/account/team', token, { phone: phones[1], name: 'Omar Alzahrani', role: 'dispatcher' });
    await call('POST', '/paymentMethod', token, { number: '4111111111111111', expMonth: 12, expYear: 2030, cvc: '123', holderName: 'Sara Alqahtani' });
    await call('POST', '/paymentMethod', token, { number: '5555555555554444', expMonth: 3, expYear: 2029, cvc: '321', holderName: 'Sara Alqahtani' });
    await call('POST', '/account/addresses', token, {
      label: 'Riyadh warehouse',
      cityId: riyadh.id,
      address: 'Gate 3',
      addressDetails: { buildingNumber: '2345', streetName: 'King Fahd Rd', district: 'Al Olaya', region: 'Riyadh', zipCode: '12211' },
    });
  }
}
