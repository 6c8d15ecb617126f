// The form that creates a Beneficiary (the list page's New Beneficiary): its type, e-mail, names and country, the
// API's messages beside the fields; the new Beneficiary's page opens once it exists.
import { Select, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useNavigate } from "react-router";
import { useCreateBeneficiary } from "../../hooks/api/beneficiaries/mutations";
import type { BeneficiaryType, CreateBeneficiaryRequest } from "../../hooks/api/beneficiaries/types";
import { setFieldErrors } from "../../hooks/api/form-errors";
import { CountrySelect } from "../CodePickers";
import { FormDialog } from "../FormDialog";

type Values = {
  type: BeneficiaryType;
  email: string;
  first_name: string;
  last_name: string;
  business_name: string;
  /** Of residence for a person, of incorporation for a business. */
  country: string;
};

const INITIAL: Values = { type: "person", email: "", first_name: "", last_name: "", business_name: "", country: "" };

/** The API names the one country field after the type. */
const COUNTRY_ALIASES = { country_of_residence: "country", country_of_incorporation: "country" };

function requestOf(values: Values): CreateBeneficiaryRequest {
  const opt = (name: string, value: string) => (value.trim() === "" ? {} : { [name]: value.trim() });
  return {
    beneficiary_type: values.type,
    email: values.email.trim(),
    ...(values.type === "person"
      ? {
          ...opt("first_name", values.first_name),
          ...opt("last_name", values.last_name),
          ...opt("country_of_residence", values.country.toUpperCase()),
        }
      : {
          ...opt("business_name", values.business_name),
          ...opt("country_of_incorporation", values.country.toUpperCase()),
        }),
  };
}

export function CreateBeneficiary({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const create = useCreateBeneficiary();
  const form = useForm<Values>({ initialValues: INITIAL });
  const person = form.values.type === "person";

  const submit = form.onSubmit((values) =>
    create.mutate(requestOf(values), {
      onSuccess: (created) => navigate(`/beneficiaries/${created.id}`),
      onError: (refusal) => setFieldErrors(form, refusal, { aliases: COUNTRY_ALIASES }),
    }),
  );

  return (
    <FormDialog
      title="New Beneficiary"
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Create"
      busy={create.isPending}
      error={create.error}
      errorTitle="Could not create the Beneficiary"
      noValidate
    >
      <Select
        label="Type"
        data={[
          { value: "person", label: "Person" },
          { value: "business", label: "Business" },
        ]}
        value={form.values.type}
        onChange={(value) => form.setFieldValue("type", value === "business" ? "business" : "person")}
        allowDeselect={false}
      />
      <TextInput label="E-mail" type="email" {...form.getInputProps("email")} required data-autofocus />
      {person ? (
        <>
          <TextInput label="First name" {...form.getInputProps("first_name")} />
          <TextInput label="Last name" {...form.getInputProps("last_name")} />
        </>
      ) : (
        <TextInput label="Business name" {...form.getInputProps("business_name")} />
      )}
      <CountrySelect label={person ? "Country of residence" : "Country of incorporation"} {...form.getInputProps("country")} />
    </FormDialog>
  );
}
