import { useState } from 'react';
import { type Answer, ApiError, api, type Body, useApi } from '../api';
import { Link } from '../router';
import { useSession } from '../session';
import { ConfirmButton, DataTable, ErrorBanner, Field, Form, type FormValues, Notice, Page, Section } from '../ui';
import { when } from '../ui/org-kit';
import type { ScreenDef } from './types';

/** GET /api/v1/members/domains (docs/organizations.md "Verified domains and domain join"): one claim. */
type DomainClaim = Answer<'/members/domains'>[number];
/** POST /api/v1/members/domains: the claim as made, with the TXT record to publish. */
type NewClaim = Answer<'/members/domains', 'post', 201>;
/** POST /api/v1/members/domains/{domain_id}/verify: whether the TXT record was found. */
type Verification = Answer<'/members/domains/{domain_id}/verify', 'post'>;

function CopyButton(props: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <>
      <button
        type="button"
        className="button"
        aria-label={`${copied ? 'Copied' : 'Copy'} ${props.label}`}
        onClick={async () => {
          await navigator.clipboard?.writeText(props.value).catch(() => undefined);
          setCopied(true);
        }}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
      <span className="visually-hidden" aria-live="polite">
        {copied ? 'Copied to the clipboard' : ''}
      </span>
    </>
  );
}

/** The record to publish, as a zone-file line and as its parts. */
function TxtRecord(props: { claim: DomainClaim | NewClaim }) {
  return (
    <div className="org-inline">
      <code className="org-record" data-testid={`txt-${props.claim.domain}`}>
        {props.claim.domain}. TXT "{props.claim.txt_record}"
      </code>
      <CopyButton value={props.claim.txt_record} label={`the TXT record value of ${props.claim.domain}`} />
    </div>
  );
}

function Domains() {
  const session = useSession();
  const manage = session.can('members:manage');
  const claims = useApi<DomainClaim[]>('/members/domains');
  const [claimed, setClaimed] = useState<NewClaim | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const [formKey, setFormKey] = useState(0);

  const verify = async (claim: DomainClaim) => {
    setNotice(undefined);
    setError(undefined);
    try {
      const answer = await api<Verification>('POST', `/members/domains/${encodeURIComponent(claim.domain_id)}/verify`);
      if (answer.verified) setNotice(`${answer.domain} is verified.`);
      else
        setError(
          new ApiError(
            0,
            `${answer.domain} is not verified: the TXT record was not found at the domain name (or DNS did not answer). DNS changes can take a while to spread; try again later.`,
          ),
        );
      claims.reload();
    } catch (reason) {
      setError(reason instanceof ApiError ? reason : new ApiError(0, String(reason)));
    }
  };

  return (
    <Page
      title="Verified domains"
      description={
        <>
          Prove the organization owns a domain by publishing a TXT record at the domain name. With a verified domain and
          the setting <code>members.domain_join_enabled</code>
          {session.can('tenant:manage') ? (
            <>
              {' '}
              (<Link to="/settings">Settings</Link>)
            </>
          ) : null}
          , people with an address there may join without an invitation.
        </>
      }
    >
      {notice && <Notice>{notice}</Notice>}
      <ErrorBanner error={error} />
      {manage && (
        <Section title="Claim a domain">
          <Form
            key={formKey}
            label="Claim a domain"
            submitLabel="Claim domain"
            onSubmit={async (values: FormValues<'domain'>) => {
              setNotice(undefined);
              setError(undefined);
              const claim = await api<NewClaim>('POST', '/members/domains', { domain: values.domain } satisfies Body<
                '/members/domains',
                'post'
              >);
              setClaimed(claim);
              setFormKey((n) => n + 1);
              claims.reload();
            }}
          >
            <Field
              name="domain"
              label="Domain"
              required
              placeholder="example.com"
              autoComplete="off"
              hint="The exact domain of your members' addresses; public email providers cannot be claimed."
            />
          </Form>
          {claimed && (
            <div className="banner banner-success" role="status">
              <p>
                Publish this TXT record at <strong>{claimed.domain}</strong> itself (not a subdomain), then choose{' '}
                <em>Verify</em>:
              </p>
              <TxtRecord claim={claimed} />
            </div>
          )}
        </Section>
      )}
      <Section title="Domains">
        <DataTable<DomainClaim>
          caption="Claimed domains"
          rows={claims.data}
          loading={claims.loading}
          error={claims.error}
          rowKey={(row) => row.domain_id}
          empty="No domain claimed yet."
          columns={[
            { key: 'domain', header: 'Domain', render: (row) => row.domain },
            {
              key: 'status',
              header: 'Status',
              render: (row) =>
                row.verified ? (
                  <>
                    Verified <span className="muted">{when(row.verified_at)}</span>
                  </>
                ) : (
                  'Not verified'
                ),
            },
            { key: 'record', header: 'TXT record to publish', render: (row) => <TxtRecord claim={row} /> },
            ...(manage
              ? [
                  {
                    key: 'actions',
                    header: 'Actions',
                    render: (row: DomainClaim) => (
                      <div className="org-inline">
                        <button
                          type="button"
                          className="button"
                          aria-label={`${row.verified ? 'Check again' : 'Verify'} ${row.domain}`}
                          onClick={() => void verify(row)}
                        >
                          {row.verified ? 'Check again' : 'Verify'}
                        </button>
                        <ConfirmButton
                          label="Remove"
                          ariaLabel={`Remove ${row.domain}`}
                          question={`Withdraw the claim on ${row.domain}? Domain join through it closes at once.`}
                          onConfirm={async () => {
                            await api('DELETE', `/members/domains/${encodeURIComponent(row.domain_id)}`);
                            setClaimed((current) => (current?.domain_id === row.domain_id ? undefined : current));
                            setError(undefined);
                            setNotice(`The claim on ${row.domain} was withdrawn.`);
                            claims.reload();
                          }}
                        />
                      </div>
                    ),
                  },
                ]
              : []),
          ]}
        />
      </Section>
    </Page>
  );
}

export const screens: ScreenDef[] = [
  {
    path: '/domains',
    title: 'Verified domains',
    group: 'Organization',
    visible: (s) => s.can('members:read'),
    component: Domains,
  },
];
