import { useState } from 'react';
import { type Answer, ApiError, api, useApi } from '../api';
import { useSession } from '../session';
import { DataTable, ErrorBanner, Field, Form, Loading, Notice, Page, Section } from '../ui';
import type { ScreenDef } from './types';

/** GET /operator/pricing: the editable pricing content, unpublished plans included (docs/operator.md "Pricing"). */
type PricingContent = Answer<'/operator/pricing'>;
type PlanContent = PricingContent['plans'][number];

/**
 * The whole document is edited as JSON, as `PUT /operator/pricing` replaces it whole: the page adds no rule of its
 * own, and the API's 422 (an unknown `plan_code`, a field out of shape) is shown as it answers.
 */
function Pricing() {
  const session = useSession();
  const pricing = useApi<PricingContent>('/operator/pricing');
  const [saved, setSaved] = useState(false);
  const manage = session.can('operator:manage');
  return (
    <Page title="Pricing" description="The public pricing page (GET /api/v1/pricing) serves this document at once.">
      {pricing.loading && !pricing.data && <Loading />}
      <ErrorBanner error={pricing.error} />
      {pricing.data && (
        <>
          <Section title={`Plans (${pricing.data.currency})`}>
            <DataTable<PlanContent>
              caption="Plans on the pricing page"
              rows={pricing.data.plans}
              rowKey={(plan) => plan.plan_code}
              empty="No plans."
              columns={[
                { key: 'code', header: 'Plan', render: (plan) => <code>{plan.plan_code}</code> },
                { key: 'name', header: 'Name', render: (plan) => plan.name },
                {
                  key: 'price',
                  header: 'Price',
                  render: (plan) => (plan.price === null ? 'On request' : `${plan.price} / ${plan.period ?? '—'}`),
                },
                { key: 'published', header: 'Published', render: (plan) => (plan.published ? 'Yes' : 'No') },
                { key: 'popular', header: 'Marked popular', render: (plan) => (plan.popular ? 'Yes' : 'No') },
              ]}
            />
          </Section>
          {manage && (
            <Section title="Edit the document">
              {saved && <Notice>Pricing saved: the public page serves it now.</Notice>}
              <Form
                label="Pricing document"
                submitLabel="Save pricing"
                onSubmit={async (values) => {
                  setSaved(false);
                  let document: unknown;
                  try {
                    document = JSON.parse(values.document ?? '');
                  } catch (error) {
                    throw new ApiError(422, `document: not valid JSON (${(error as Error).message})`);
                  }
                  await api('PUT', '/operator/pricing', document);
                  setSaved(true);
                  pricing.reload();
                }}
              >
                <Field
                  name="document"
                  label="Pricing document (JSON)"
                  multiline
                  defaultValue={JSON.stringify(pricing.data, null, 2)}
                  hint="Every plan with its name, price, period, blurb, call to action, highlights and flags."
                />
              </Form>
            </Section>
          )}
        </>
      )}
    </Page>
  );
}

export const screens: ScreenDef[] = [
  {
    path: '/operator/pricing',
    title: 'Pricing',
    group: 'Platform operator',
    visible: (s) => s.isPlatformOperator && s.can('operator:read'),
    component: Pricing,
  },
];
