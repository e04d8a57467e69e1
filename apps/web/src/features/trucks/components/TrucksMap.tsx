import { useMemo } from 'react';
import { Stack, Text } from '@mantine/core';
import { Circle, MapContainer, Marker, Popup, TileLayer } from 'react-leaflet';
import { useTranslation } from 'react-i18next';
import type { Truck } from '@masar/shared';
import { mapTilesUrl } from '../../../components/LoadsMap';
import { asLang, cityName, formatMoney } from '../../../components/format';

/** Trucks at their origin city (the load board's map: same tiles and marker), with the searched circle. */
export function TrucksMap({
  trucks,
  center,
  onOpen,
}: {
  trucks: Truck[];
  center?: { lat: number; lng: number; radiusKm?: number } | null;
  onOpen: (t: Truck) => void;
}) {
  const { t, i18n } = useTranslation('trucks');
  const lang = asLang(i18n.language);
  const start = useMemo<[number, number]>(
    () => (center ? [center.lat, center.lng] : trucks[0] ? [trucks[0].origin.lat, trucks[0].origin.lng] : [24, 45]),
    [center, trucks],
  );
  return (
    <div data-testid="trucks-map" style={{ height: 480, width: '100%', borderRadius: 8, overflow: 'hidden', background: 'var(--mantine-color-gray-3)' }}>
      <MapContainer center={start} zoom={center ? 7 : 5} style={{ height: '100%', width: '100%' }} scrollWheelZoom>
        <TileLayer url={mapTilesUrl()} attribution="&copy; OpenStreetMap contributors" />
        {center?.radiusKm && (
          <Circle center={[center.lat, center.lng]} radius={center.radiusKm * 1000} pathOptions={{ color: '#0FC474', weight: 1, fillOpacity: 0.08 }} />
        )}
        {trucks.map((tr, i) => (
          // trucks of one city fan out a little so that each marker stays reachable
          <Marker
            key={tr.id}
            position={[tr.origin.lat + (i % 5) * 0.01, tr.origin.lng + Math.floor(i / 5) * 0.01]}
            title={tr.referenceId}
            alt={`${tr.referenceId}, ${cityName(tr.origin, lang)}`}
          >
            <Popup>
              <Stack gap={2}>
                <Text size="sm" fw={600}>
                  {tr.company}
                </Text>
                <Text size="sm">{formatMoney(tr.minRateSar, lang)}</Text>
                <button type="button" onClick={() => onOpen(tr)}>
                  {t('action.details')} {tr.referenceId}
                </button>
              </Stack>
            </Popup>
          </Marker>
        ))}
      </MapContainer>
    </div>
  );
}
