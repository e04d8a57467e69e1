-- Issue 23 "Addresses": a saved address may be light — label + city + free text — where the spec
-- demands no national address (the address book feeds the post form, whose stops take the national
-- address as optional). The structured address stays as it was when given.
alter table saved_addresses alter column address_details drop not null;
