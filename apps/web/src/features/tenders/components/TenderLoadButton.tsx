import { useState } from 'react';
import { Button } from '@mantine/core';
import { IconGavel } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { TenderDialog } from './TenderDialog';

/** On my load (details page): "Tender" — offer it to chosen carriers with a deadline. */
export function TenderLoadButton({ loadId, referenceId }: { loadId: string; referenceId: string }) {
  const { t } = useTranslation('tenders');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="light" leftSection={<IconGavel size={16} />} onClick={() => setOpen(true)} data-testid="tender-load">
        {t('load.tender')}
      </Button>
      {open && <TenderDialog opened onClose={() => setOpen(false)} load={{ id: loadId, referenceId }} />}
    </>
  );
}
