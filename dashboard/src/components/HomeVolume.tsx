// Home: payout volume per day and currency over the last 30 days, from one aggregate read
// (GET /v1/payouts/volume), drawn by a chart loaded on demand.
import { Card, Center, Loader, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense } from "react";
import { api, call } from "../api/client";
import { useSignedIn } from "../lib/session";
import { volumeSeries } from "../lib/volume";
import { ErrorAlert } from "./ErrorAlert";

const VolumeChart = lazy(() => import("./VolumeChart"));
const DAYS = 30;

export function HomeVolume() {
  const { environment } = useSignedIn();
  const volume = useQuery({
    queryKey: [environment, "payouts", "volume", DAYS],
    queryFn: () => call(api.GET("/v1/payouts/volume", { params: { query: { days: DAYS } } })),
  });
  const series = volume.data === undefined ? [] : volumeSeries(volume.data);
  return (
    <Card withBorder component="section" aria-labelledby="volume-heading">
      <Stack gap="sm">
        <Title order={2} size="h3" id="volume-heading">
          Volume, last {DAYS} days
        </Title>
        <Text size="sm" c="dimmed">
          Payouts created per day (UTC), by currency; rejected, canceled and failed payouts are not counted.
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
            <VolumeChart series={series} />
          </Suspense>
        )}
      </Stack>
    </Card>
  );
}
