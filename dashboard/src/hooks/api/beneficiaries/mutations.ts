// Writing Beneficiaries: creating, editing the identity, acknowledging, archiving and restoring, enrolling with
// the rail again, importing a CSV; their destinations (adding a bank account, declaring one, deleting one) and
// collection links (sending, cancelling). Each goes through the session's step-up and reads the Beneficiaries
// again: after success, and for the actions of a Beneficiary's page after a refusal too, since a refusal
// there usually means the Beneficiary changed meanwhile (archived, already acknowledged, link expired) and the
// page should show how it is now.
import { useQueryClient } from "@tanstack/react-query";
import { api, call } from "../../../api/client";
import { useSession } from "../../../lib/session-context";
import { queryKeys } from "../query-keys";
import { useApiMutation } from "../use-api-mutation";
import type {
  CollectionLinkInput,
  CreateBankAccountRequest,
  CreateBeneficiaryRequest,
  ImportRows,
  UpdateBeneficiaryRequest,
} from "./types";

/** Reads every Beneficiary key again (lists, the ready list, details, destinations): their status may change. */
function useRefreshBeneficiaries() {
  const { environment } = useSession();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.beneficiaries.all(environment) });
}

export function useCreateBeneficiary() {
  const refresh = useRefreshBeneficiaries();
  return useApiMutation({
    mutationFn: (body: CreateBeneficiaryRequest) => call(api.POST("/v1/beneficiaries", { body })),
    onSuccess: refresh,
  });
}

/** Only the fields sent change; a field sent as null is cleared. */
export function useUpdateBeneficiary(beneficiaryId: string) {
  const refresh = useRefreshBeneficiaries();
  return useApiMutation({
    mutationFn: (body: UpdateBeneficiaryRequest) =>
      call(api.PUT("/v1/beneficiaries/{id}", { params: { path: { id: beneficiaryId } }, body })),
    onSuccess: refresh,
  });
}

export function useAcknowledgeBeneficiary(beneficiaryId: string) {
  const refresh = useRefreshBeneficiaries();
  return useApiMutation({
    mutationFn: () => call(api.POST("/v1/beneficiaries/{id}/acknowledge", { params: { path: { id: beneficiaryId } } })),
    onSettled: refresh,
  });
}

export function useArchiveBeneficiary(beneficiaryId: string) {
  const refresh = useRefreshBeneficiaries();
  return useApiMutation({
    mutationFn: () => call(api.POST("/v1/beneficiaries/{id}/archive", { params: { path: { id: beneficiaryId } } })),
    onSettled: refresh,
  });
}

export function useRestoreBeneficiary(beneficiaryId: string) {
  const refresh = useRefreshBeneficiaries();
  return useApiMutation({
    mutationFn: () => call(api.POST("/v1/beneficiaries/{id}/unarchive", { params: { path: { id: beneficiaryId } } })),
    onSettled: refresh,
  });
}

/** Enrolls the Beneficiary with the payout rail again; the answer says whether the rail accepted it. */
export function useRetryEnrollment(beneficiaryId: string) {
  const refresh = useRefreshBeneficiaries();
  return useApiMutation({
    mutationFn: () => call(api.POST("/v1/beneficiaries/{id}/enrollment", { params: { path: { id: beneficiaryId } } })),
    onSettled: refresh,
  });
}

export function useImportBeneficiaries() {
  const refresh = useRefreshBeneficiaries();
  return useApiMutation({
    mutationFn: (rows: ImportRows) => call(api.POST("/v1/beneficiaries/import", { body: { rows } })),
    onSuccess: refresh,
  });
}

export function useAddBankAccount(beneficiaryId: string) {
  const refresh = useRefreshBeneficiaries();
  return useApiMutation({
    mutationFn: (body: CreateBankAccountRequest) =>
      call(api.POST("/v1/beneficiaries/{id}/bank-accounts", { params: { path: { id: beneficiaryId } }, body })),
    onSuccess: refresh,
  });
}

export function useDeclareDestination(beneficiaryId: string) {
  const refresh = useRefreshBeneficiaries();
  return useApiMutation({
    mutationFn: (destinationId: string) =>
      call(
        api.PUT("/v1/beneficiaries/{id}/declared-destination", {
          params: { path: { id: beneficiaryId } },
          body: { destination_id: destinationId },
        }),
      ),
    onSettled: refresh,
  });
}

export function useDeleteDestination(beneficiaryId: string) {
  const refresh = useRefreshBeneficiaries();
  return useApiMutation({
    mutationFn: (destinationId: string) =>
      call(
        api.DELETE("/v1/beneficiaries/{id}/bank-accounts/{accountId}", {
          params: { path: { id: beneficiaryId, accountId: destinationId } },
        }),
      ),
    onSettled: refresh,
  });
}

/** A new collection link (replacing the live one); its URL is in this answer only. */
export function useSendCollectionLink(beneficiaryId: string) {
  const refresh = useRefreshBeneficiaries();
  return useApiMutation({
    mutationFn: ({ scope, sendEmail }: CollectionLinkInput) =>
      call(
        api.POST("/v1/beneficiaries/{id}/collection-requests", {
          params: { path: { id: beneficiaryId } },
          body: { scope, send_email: sendEmail },
        }),
      ),
    onSuccess: refresh,
  });
}

export function useCancelCollectionLink(beneficiaryId: string) {
  const refresh = useRefreshBeneficiaries();
  return useApiMutation({
    mutationFn: (requestId: string) =>
      call(
        api.DELETE("/v1/beneficiaries/{id}/collection-requests/{requestId}", {
          params: { path: { id: beneficiaryId, requestId } },
        }),
      ),
    onSettled: refresh,
  });
}
