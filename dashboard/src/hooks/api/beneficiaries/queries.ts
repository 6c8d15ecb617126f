// Reading Beneficiaries: the list (filters, cursor pages), the ready ones a payout can go to, one Beneficiary and
// its destinations; and the CSV export. Every key is under `queryKeys.beneficiaries.all`.
import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";
import type { BeneficiaryListFilters } from "./types";

const PAGE = 25;

/** One page of the Beneficiaries list; the previous page stays shown while the next one loads. */
export function useBeneficiaries(filters: BeneficiaryListFilters, cursor: string | null) {
  const { environment } = useSession();
  const { status, type, compliance, email } = filters;
  return useQuery({
    queryKey: queryKeys.beneficiaries.list(environment, filters, cursor),
    queryFn: () =>
      call(
        api.GET("/v1/beneficiaries", {
          params: {
            query: {
              limit: PAGE,
              ...(status === null ? {} : { status }),
              ...(type === null ? {} : { beneficiary_type: type }),
              ...(compliance === null ? {} : { compliance_status: compliance }),
              ...(email === "" ? {} : { email }),
              ...(cursor === null ? {} : { cursor }),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

/** The Beneficiaries a new payout can go to (up to 200). */
export function useReadyBeneficiaries() {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.beneficiaries.ready(environment),
    queryFn: () => call(api.GET("/v1/beneficiaries", { params: { query: { limit: 200, status: "ready" } } })),
  });
}

export function useBeneficiary(beneficiaryId: string) {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.beneficiaries.detail(environment, beneficiaryId),
    queryFn: () => call(api.GET("/v1/beneficiaries/{id}", { params: { path: { id: beneficiaryId } } })),
  });
}

/** A Beneficiary's destinations, masked (none asked while `beneficiaryId` is null). */
export function useDestinations(beneficiaryId: string | null) {
  const { environment } = useSession();
  return useQuery({
    queryKey: queryKeys.beneficiaries.destinations(environment, beneficiaryId ?? ""),
    queryFn: () => call(api.GET("/v1/beneficiaries/{id}/bank-accounts", { params: { path: { id: beneficiaryId ?? "" } } })),
    enabled: beneficiaryId !== null,
  });
}

/**
 * Every Beneficiary as CSV text, asked when the person clicks Export: a download, not a cached answer, so a
 * mutation (its pending and error states like every other action's) rather than a query. Through the API
 * client, not a plain link: the request needs the environment header.
 */
export function useBeneficiaryExport() {
  return useMutation({
    mutationFn: async () => (await call(api.GET("/v1/beneficiaries/export", { parseAs: "text" }))) as unknown as string,
  });
}
