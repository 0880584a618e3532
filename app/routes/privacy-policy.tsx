import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { LegalPage } from "~/components/legal/legal-page";
import { pageMeta } from "~/components/legal/page-meta";
import { RETENTION_SECTION_TITLES, RetentionSections } from "~/components/legal/retention-sections";
import { readLegalDocument } from "~/lib/content.server";
import { readRetentionPolicy } from "~/lib/privacy.server";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { hideChrome: true };

export async function loader({ context }: LoaderFunctionArgs) {
  const [document, retention] = await Promise.all([
    readLegalDocument(context, "privacy-policy"),
    readRetentionPolicy(context),
  ]);
  return { document, retentionDays: retention.retentionDays };
}

export default function PrivacyPolicy() {
  const { document, retentionDays } = useLoaderData<typeof loader>();
  return (
    <LegalPage
      title={document.title}
      paragraphs={document.paragraphs}
      current="/privacy-policy"
      ownSections={RETENTION_SECTION_TITLES}
    >
      <RetentionSections days={retentionDays} />
    </LegalPage>
  );
}

export const meta: MetaFunction = () =>
  pageMeta({
    title: "Privacy Policy · Store",
    description: "What personal data the store keeps, why, for how long, and what you can ask us to do with it.",
  });
