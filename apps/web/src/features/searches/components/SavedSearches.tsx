import { useEffect, useRef, useState } from 'react';
import { ActionIcon, Button, Divider, Drawer, Group, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconBookmark, IconDeviceFloppy, IconHistory, IconPencil, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { SearchFilters, SearchKind } from '@masar/shared';
import { asLang, cityName } from '../../../components/format';
import { notifyError, notifySuccess } from '../../../components/notify';
import { refName, useCitiesByIds, useEquipmentTypes } from '../../../components/reference';
import { useViewer } from '../../../components/useViewer';
import { useDeleteSearch, useRecentSearches, useRecordRecent, useRenameSearch, useSavedSearches, useSaveSearch } from '../api/searches';
import { citiesOf, describeFilters } from './describe';
import { SaveSearchDialog } from './SaveSearchDialog';

/** Filters worth remembering as a recent search: at least one besides the order. */
const isSearch = (f: SearchFilters) => Object.keys(f).some((k) => k !== 'sort');
const keyOf = (f: SearchFilters) => JSON.stringify(Object.entries(f).sort(([a], [b]) => (a < b ? -1 : 1)));

/**
 * "Save search" and "Saved & recent" on a search page (issue 19; spec §2 saved and recent
 * searches): saves the page's current `filters` under a name (a duplicate is refused by the
 * server: "duplicate search exists"), lists my saved and recent searches of `kind` in a drawer —
 * one click runs one (`onRun` with its filters; the page puts them in its URL), rename and
 * delete — and records each search the page runs among my recent ones. Signed-in users only.
 */
export function SavedSearches({ kind, filters, onRun }: { kind: SearchKind; filters: SearchFilters; onRun: (filters: SearchFilters) => void }) {
  const { t, i18n } = useTranslation('searches');
  const lang = asLang(i18n.language);
  const viewer = useViewer();
  const signedIn = viewer.isSignedIn;
  const [drawer, setDrawer] = useState(false);
  const [dialog, setDialog] = useState<{ mode: 'save' } | { mode: 'rename'; id: string; name: string } | null>(null);
  const [key, setKey] = useState(() => crypto.randomUUID());
  const saved = useSavedSearches(kind, signedIn && drawer);
  const recent = useRecentSearches(kind, signedIn && drawer);
  const save = useSaveSearch();
  const rename = useRenameSearch();
  const remove = useDeleteSearch();
  const record = useRecordRecent();
  const eq = useEquipmentTypes();
  const all = [...(saved.data ?? []).map((s) => s.filters), ...(recent.data ?? []).map((s) => s.filters), filters];
  const cities = useCitiesByIds(all.flatMap(citiesOf));
  const ctx = {
    t: t as unknown as (k: string, o?: Record<string, unknown>) => string,
    lang,
    city: (id: number) =>
      cityName(
        cities.data?.find((c) => c.id === id),
        lang,
      ) || '…',
    equipment: (code: string) => refName(eq.data, code, lang),
  };

  // each search the page runs becomes my most recent one (once per distinct search)
  const recorded = useRef<string | null>(null);
  const current = keyOf(filters);
  const { mutate: recordMutate } = record;
  useEffect(() => {
    if (!signedIn || !isSearch(filters) || recorded.current === current) return;
    recorded.current = current;
    recordMutate({ kind, filters });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `current` is the filters' identity
  }, [signedIn, current, kind, recordMutate]);

  if (!signedIn) return null;
  const close = () => {
    setDialog(null);
    save.reset();
    rename.reset();
    setKey(crypto.randomUUID());
  };
  const run = (f: SearchFilters) => {
    setDrawer(false);
    onRun(f);
  };
  const del = (id: string, list: 'saved' | 'recent') => remove.mutate({ id, list }, { onSuccess: () => notifySuccess(t('deleted')), onError: notifyError });

  return (
    <>
      <Group gap="xs" wrap="wrap">
        <Button size="xs" variant="light" leftSection={<IconDeviceFloppy size={14} />} onClick={() => setDialog({ mode: 'save' })} data-testid="save-search">
          {t('save')}
        </Button>
        <Button size="xs" variant="default" leftSection={<IconHistory size={14} />} onClick={() => setDrawer(true)} data-testid="saved-searches-open">
          {t('open')}
        </Button>
      </Group>
      <Drawer opened={drawer} onClose={() => setDrawer(false)} position="right" title={t('title')} closeButtonProps={{ 'aria-label': t('close') }}>
        <Stack gap="xs" data-testid="saved-searches">
          <Text fw={600} size="sm">
            {t('saved')}
          </Text>
          {saved.data?.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('noSaved')}
            </Text>
          )}
          {saved.data?.map((s) => (
            <Group key={s.id} gap="xs" wrap="nowrap" justify="space-between">
              <UnstyledButton onClick={() => run(s.filters)} style={{ flex: 1, minInlineSize: 0 }} data-testid="saved-search-run">
                <Group gap={6} wrap="nowrap">
                  <IconBookmark size={14} />
                  <Text size="sm" fw={500} truncate>
                    {s.name}
                  </Text>
                </Group>
                <Text size="xs" c="dimmed" truncate>
                  {describeFilters(s.filters, ctx)}
                </Text>
              </UnstyledButton>
              <Tooltip label={t('rename')}>
                <ActionIcon variant="subtle" aria-label={t('rename')} onClick={() => setDialog({ mode: 'rename', id: s.id, name: s.name })}>
                  <IconPencil size={16} />
                </ActionIcon>
              </Tooltip>
              <Tooltip label={t('delete')}>
                <ActionIcon variant="subtle" color="masarRed" aria-label={t('delete')} onClick={() => del(s.id, 'saved')} data-testid="saved-search-delete">
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            </Group>
          ))}
          <Divider my="xs" />
          <Text fw={600} size="sm">
            {t('recent')}
          </Text>
          {recent.data?.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('noRecent')}
            </Text>
          )}
          {recent.data?.map((r) => (
            <Group key={r.id} gap="xs" wrap="nowrap" justify="space-between">
              <UnstyledButton onClick={() => run(r.filters)} style={{ flex: 1, minInlineSize: 0 }} data-testid="recent-search-run">
                <Text size="sm" truncate>
                  {describeFilters(r.filters, ctx)}
                </Text>
              </UnstyledButton>
              <Tooltip label={t('delete')}>
                <ActionIcon variant="subtle" color="masarRed" aria-label={t('delete')} onClick={() => del(r.id, 'recent')}>
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            </Group>
          ))}
        </Stack>
      </Drawer>
      {dialog && (
        <SaveSearchDialog
          opened
          title={dialog.mode === 'save' ? t('dialog.saveTitle') : t('dialog.renameTitle')}
          initialName={dialog.mode === 'rename' ? dialog.name : describeFilters(filters, ctx).slice(0, 80)}
          busy={save.isPending || rename.isPending}
          error={save.error ?? rename.error}
          onCancel={close}
          onSave={(name) =>
            dialog.mode === 'save'
              ? save.mutate({ kind, name, filters, key }, { onSuccess: () => (notifySuccess(t('savedOk')), close()) })
              : rename.mutate({ id: dialog.id, name }, { onSuccess: () => (notifySuccess(t('renamedOk')), close()) })
          }
        />
      )}
    </>
  );
}
