// Home: payout volume per day and currency over the last 30 days of the dashboard's time zone (the
// Business's, else the browser's), from one aggregate read (GET /v1/payouts/volume), drawn by a chart loaded on
// demand. The answer's `until` is today by the server's clock, which Home also uses for its 7-day count.
import { Card, Center, Loader, Stack, Text, Title } from "@mantine/core";
import { lazy, Suspense } from "react";
import { VOLUME_DAYS as DAYS, usePayoutVolume } from "../hooks/api/payouts/summary-queries";
import { volumeSeries } from "../lib/volume";
import { ErrorAlert } from "./ErrorAlert";

const VolumeChart = lazy(() => import("./VolumeChart"));

export function HomeVolume() {
  const volume = usePayoutVolume();
  const series = volume.data === undefined ? [] : volumeSeries(volume.data);
  return (
    <Card withBorder component="section" aria-labelledby="volume-heading">
      <Stack gap="sm">
        <Title order={2} size="h3" id="volume-heading">
          Volume, last {DAYS} days
        </Title>
        <Text size="sm" c="dimmed">
          Payouts created per day ({volume.data?.time_zone ?? "…"}), by currency; rejected, canceled and failed payouts are not
          counted.
        </Text>
        <ErrorAlert error={volume.error} title="Could not load the volume" />
        {volume.isPending ? (
          <Text c="dimmed">Loading the volume…</Text>
        ) : series.length === 0 ? (
          !volume.isError && (
            <Text c="dimmed" data-testid="no-volume">
              No payouts in the last {DAYS} days. Pay someone with New payout under Payouts, or send a CSV file under Bulk upload.
            </Text>
          )
        ) : (
          <Suspense
            fallback={
              <Center py="md">
                <Loader aria-label="Loading the chart" />
              </Center>
            }
          >
            <VolumeChart series={series} timeZone={volume.data?.time_zone ?? "UTC"} />
          </Suspense>
        )}
      </Stack>
    </Card>
  );
}
