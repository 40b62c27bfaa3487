import { PageHeader } from "../../components/ui";

export function Area() {
  return <PageHeader title="alerts" />;
}
