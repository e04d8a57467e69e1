import { useState, type ReactNode } from 'react';
import { Center, Group, Paper, SegmentedControl, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A table view of a chart's figures: column headers and formatted rows. */
export interface ChartTable {
  columns: string[];
  rows: (string | number)[][];
}

/**
 * A dashboard card with a chart and its table view (issue 20: every chart is readable as a
 * table). "Chart | Table" switches between them; screen readers get the table in either view
 * (the chart's SVG is hidden from them). `empty`: nothing to show yet (a new account).
 */
export function ChartCard({
  title,
  table,
  empty,
  children,
  testId,
}: {
  title: string;
  table: ChartTable;
  empty: boolean;
  children: ReactNode;
  testId: string;
}) {
  const { t } = useTranslation('dashboard');
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const tableEl = (id?: string) => (
    <Table.ScrollContainer minWidth={320}>
      <Table striped data-testid={id}>
        <Table.Caption>{title}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {table.columns.map((c) => (
              <Table.Th key={c} scope="col">
                {c}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {table.rows.map((r, i) => (
            <Table.Tr key={i}>
              {r.map((cell, j) => (
                <Table.Td key={j}>{cell}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
  return (
    <Paper withBorder p="md" radius="md" data-testid={testId}>
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Title order={3} size="h5">
          {title}
        </Title>
        {!empty && (
          <SegmentedControl
            size="xs"
            value={view}
            onChange={(v) => setView(v)}
            data={[
              { value: 'chart', label: t('view.chart') },
              { value: 'table', label: t('view.table') },
            ]}
            aria-label={t('view.label', { title })}
            data-testid={`${testId}-view`}
          />
        )}
      </Group>
      {empty ? (
        <Center mih={120}>
          <Text c="dimmed" size="sm" ta="center">
            {t('empty')}
          </Text>
        </Center>
      ) : view === 'table' ? (
        tableEl(`${testId}-table`)
      ) : (
        // inert: the chart's focusable SVG leaves the tab order and the accessibility tree; its table is read instead
        <div inert>{children}</div>
      )}
      {!empty && view === 'chart' && <VisuallyHidden>{tableEl()}</VisuallyHidden>}
    </Paper>
  );
}
