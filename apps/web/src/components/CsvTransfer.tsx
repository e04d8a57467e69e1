import { useState } from 'react';
import { Alert, Anchor, Button, FileInput, Group, Menu, Modal, Select, Stack, Text } from '@mantine/core';
import { IconDownload, IconFileTypeCsv, IconUpload } from '@tabler/icons-react';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ApiError, masar, unwrap, withForm } from '../lib/api';
import { downloadFile, isCsvFile } from './transfer';

/** Entities that can be imported from / exported to CSV (issue 3). */
/** What POST /csv/import and GET /csv/templates/:type take. */
export type CsvImportType = 'vendors' | 'drivers' | 'vehicles' | 'trailers' | 'shipments';
/** What GET /csv/export/:type takes. */
export type CsvExportType = 'vendors' | 'drivers' | 'vehicles' | 'trailers' | 'loads';
export type CsvType = CsvImportType | CsvExportType;

function useRoleBase() {
  const { pathname } = useLocation();
  const m = /^\/(shippers|carriers|brokers)(\/|$)/.exec(pathname);
  return m ? `/${m[1]}` : '';
}

/**
 * "Import CSV" button + dialog: type, a CSV-only file, template downloads (English and Arabic
 * headers). The import runs in the background (202 {logId}); the user follows it in CSV logs.
 */
export function CsvImportButton({ types, onImported }: { types: CsvImportType[]; onImported?: (logId: string) => void }) {
  const { t, i18n } = useTranslation('csv');
  const base = useRoleBase();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [type, setType] = useState<CsvImportType>(types[0]);
  const upload = useMutation({ mutationFn: (form: FormData) => unwrap(masar.POST('/api/v1/csv/import', { middleware: [withForm(form)] })) });
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [logId, setLogId] = useState<string | null>(null);

  const close = () => {
    setOpen(false);
    setFile(null);
    setError(null);
    setLogId(null);
  };

  const submit = async () => {
    if (!file) return setError(t('import.fileFirst'));
    if (!isCsvFile(file)) return setError(t('import.csvOnly'));
    setError(null);
    try {
      const form = new FormData();
      form.append('type', type);
      form.append('file', file);
      const { id } = await upload.mutateAsync(form);
      setLogId(id);
      void qc.invalidateQueries({ queryKey: ['csv'] });
      onImported?.(id);
    } catch (e) {
      setError(e instanceof ApiError || e instanceof Error ? e.message : t('error'));
    }
  };

  const template = (lang: 'en' | 'ar') =>
    downloadFile(
      masar.GET('/api/v1/csv/templates/{type}', { params: { path: { type }, query: { lang } }, parseAs: 'blob' }),
      `${type}-template-${lang}.csv`,
    ).catch((e: unknown) => notifications.show({ color: 'masarRed', message: e instanceof Error ? e.message : t('error') }));

  return (
    <>
      <Button variant="default" leftSection={<IconUpload size={16} />} onClick={() => setOpen(true)} data-testid="csv-import-open">
        {t('import.button')}
      </Button>
      <Modal opened={open} onClose={close} title={t('import.title')} size="lg">
        {logId ? (
          <Stack data-testid="csv-import-started">
            <Alert color="masar" title={t('import.startedTitle')}>
              {t('import.started')}
            </Alert>
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('close')}
              </Button>
              <Button component={Link} to={`${base}/csv-logs?log=${logId}`} data-testid="csv-import-view-log">
                {t('import.viewLog')}
              </Button>
            </Group>
          </Stack>
        ) : (
          <Stack>
            <Select<CsvImportType>
              label={t('import.type')}
              data={types.map((x) => ({ value: x, label: t(`type.${x}`) }))}
              value={type}
              onChange={(v) => v && setType(v)}
              allowDeselect={false}
              data-testid="csv-import-type"
            />
            <FileInput
              label={t('import.file')}
              description={t('import.fileHint')}
              placeholder={t('import.choose')}
              accept=".csv,text/csv"
              value={file}
              onChange={(f) => {
                setFile(f);
                setError(f && !isCsvFile(f) ? t('import.csvOnly') : null);
              }}
              leftSection={<IconFileTypeCsv size={16} />}
              clearable
              error={error}
              data-testid="csv-file-button"
              fileInputProps={{ 'data-testid': 'csv-file-input' } as React.ComponentProps<'input'>}
            />
            <Group gap="xs">
              <Text size="sm">{t('import.templates')}</Text>
              <Anchor component="button" type="button" size="sm" onClick={() => void template('en')} data-testid="csv-template-en">
                {t('import.templateEn')}
              </Anchor>
              <Anchor component="button" type="button" size="sm" onClick={() => void template('ar')} data-testid="csv-template-ar">
                {t('import.templateAr')}
              </Anchor>
            </Group>
            <Text size="xs" c="dimmed">
              {t('import.help', { lang: i18n.language === 'ar' ? t('lang.ar') : t('lang.en') })}
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('cancel')}
              </Button>
              <Button onClick={() => void submit()} loading={upload.isPending} data-testid="csv-import-submit">
                {t('import.submit')}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}

/** "Export CSV" menu: downloads each type in the current language (UTF-8 with BOM, server side). */
export function CsvExportMenu({ types }: { types: CsvExportType[] }) {
  const { t, i18n } = useTranslation('csv');
  const lang = i18n.language === 'ar' ? 'ar' : 'en';
  const run = (type: CsvExportType) =>
    downloadFile(masar.GET('/api/v1/csv/export/{type}', { params: { path: { type }, query: { lang } }, parseAs: 'blob' }), `${type}-${lang}.csv`).catch(
      (e: unknown) => notifications.show({ color: 'masarRed', message: e instanceof Error ? e.message : t('error') }),
    );
  if (types.length === 1)
    return (
      <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => void run(types[0])} data-testid={`csv-export-${types[0]}`}>
        {t('export.button')}
      </Button>
    );
  return (
    <Menu position="bottom-end">
      <Menu.Target>
        <Button variant="default" leftSection={<IconDownload size={16} />} data-testid="csv-export-open">
          {t('export.button')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {types.map((x) => (
          <Menu.Item key={x} onClick={() => void run(x)} data-testid={`csv-export-${x}`}>
            {t(`type.${x}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
