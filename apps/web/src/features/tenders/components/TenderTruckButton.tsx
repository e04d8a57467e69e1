import { useState } from 'react';
import { Button } from '@mantine/core';
import { IconGavel } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { TenderDialog } from './TenderDialog';

/** On a truck of the truck board: "Offer this truck a load" — tender one of my loads to the truck's carrier. */
export function TenderTruckButton({ carrierId, companyName }: { carrierId: string; companyName: string }) {
  const { t } = useTranslation('tenders');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="xs" variant="light" leftSection={<IconGavel size={14} />} onClick={() => setOpen(true)} data-testid="offer-truck-load">
        {t('truck.offer')}
      </Button>
      {open && <TenderDialog opened onClose={() => setOpen(false)} carrier={{ id: carrierId, name: companyName }} />}
    </>
  );
}
