import { Card, Text, Timeline, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { asLang, formatDate } from '../../../components/format';
import { masar, unwrap } from '../../../lib/api';

/**
 * The shipment's timeline for its parties (GET /loads/:id/timeline, oldest first): each event
 * with who and when, labelled as on the webhooks page (integrations:event.*). A close without
 * the driver's proof of delivery shows the shipper's reason (issue 22). Driver steps are left
 * out (the tracking page shows them).
 */
export function LoadTimeline({ loadId }: { loadId: string }) {
  const { t, i18n } = useTranslation(['loads', 'integrations']);
  const lang = asLang(i18n.language);
  const q = useQuery({
    queryKey: ['load', loadId, 'timeline'],
    queryFn: () => unwrap(masar.GET('/api/v1/loads/{id}/timeline', { params: { path: { id: loadId } } })),
  });
  const items = (q.data?.items ?? []).filter((e) => e.type !== 'trip.step');
  if (items.length === 0) return null;
  return (
    <Card withBorder mb="md" data-testid="load-timeline">
      <Title order={4} mb="sm">
        {t('loads:details.timeline')}
      </Title>
      <Timeline bulletSize={12} lineWidth={2} active={items.length - 1}>
        {items.map((e) => (
          <Timeline.Item key={e.eventId} title={t(`integrations:event.${e.type.replace('.', '_')}`)} data-type={e.type}>
            {e.type === 'load.delivery_override' && typeof e.data.reason === 'string' && (
              <Text fz="sm" data-testid="timeline-override-reason">
                {t('loads:details.overrideReason', { reason: e.data.reason })}
              </Text>
            )}
            <Text fz="xs" c="dimmed">
              {formatDate(e.at, lang)}
              {e.actorCompany ? ` · ${e.actorCompany}` : ''}
            </Text>
          </Timeline.Item>
        ))}
      </Timeline>
    </Card>
  );
}
