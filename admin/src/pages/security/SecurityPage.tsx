import { useState } from 'react';
import { Alert, Modal, Skeleton } from 'antd';
import type { Schemas } from '../../contract';
import { PageHeader } from '../../crud/PageHeader';
import { RecoveryCodesPanel } from '../../components/RecoveryCodesPanel';
import { usePageTitle } from '../../layout/usePageTitle';
import { roleAccess } from '../../providers/access';
import { useApiQuery } from '../../providers/calls';
import { readSession } from '../../session';
import { BreakGlassCard } from './BreakGlassCard';
import { PasskeysCard } from './PasskeysCard';
import { RecoveryCodesCard } from './RecoveryCodesCard';
import { SecondFactorPolicyCard } from './SecondFactorPolicyCard';
import { TotpCard } from './TotpCard';
import { loadFailedSignedIn } from './security.api';
import { ReadFailedAlert, useReadState } from '../../ui/ReadState';
import './security.css';

type Factors = Schemas['Factors'];

const TITLE = 'Seguridad';

/** Where the account stands, in one sentence a nurse reads first. */
function FactorsSummary({ factors }: { factors: Factors }) {
  const active = factors.totp.enabled || factors.passkeys.length > 0;
  if (active) {
    return (
      <Alert
        type="success"
        showIcon
        message="La verificación en dos pasos está activa."
        description="Al entrar, después de la contraseña, se le pide el código de su aplicación o su llave de acceso."
      />
    );
  }
  if (factors.required) {
    return (
      <Alert
        type="warning"
        showIcon
        message="Su institución exige la verificación en dos pasos para su rol."
        description="Configure la aplicación de autenticación o una llave de acceso."
      />
    );
  }
  return (
    <Alert
      type="info"
      showIcon
      message="La verificación en dos pasos está desactivada."
      description="Su cuenta da acceso a datos de salud: agregue un segundo paso para que una contraseña robada no baste para entrar."
    />
  );
}

/**
 * /security (issue 38), from the toolbar's user menu beside 'Sesiones activas': the user's second
 * factor (authenticator app, passkeys, recovery codes) and, for administrators, which roles of the
 * organisation must have one and which accounts keep their password under single sign-on.
 */
export default function SecurityPage() {
  usePageTitle(TITLE);
  const session = readSession();
  const { query } = useApiQuery('/me/factors', { errorNotification: loadFailedSignedIn });
  const factors = query.data?.data;
  const [codes, setCodes] = useState<string[] | null>(null);
  const reload = () => void query.refetch();
  // A read that failed says so (P212, issue 50): not a skeleton forever, nor 'desactivada' from nothing.
  const status = useReadState([query], false, 'su verificación en dos pasos');

  return (
    <PageHeader title={TITLE}>
      <div className="vigia-security">
        <ReadFailedAlert status={status} />
        {status.phase === 'failed' ? null : !factors ? (
          <Skeleton active />
        ) : (
          <>
            <FactorsSummary factors={factors} />
            <TotpCard factors={factors} onChanged={reload} onCodes={setCodes} />
            <PasskeysCard factors={factors} onChanged={reload} onCodes={setCodes} />
            <RecoveryCodesCard factors={factors} onCodes={(next) => (setCodes(next), reload())} />
          </>
        )}
        {roleAccess('administer').allowed && session && <SecondFactorPolicyCard clientId={session.client_id} />}
        {roleAccess('administer').allowed && session && <BreakGlassCard />}
      </div>
      <Modal
        open={codes !== null}
        title="Sus códigos de recuperación"
        footer={null}
        closable={false}
        maskClosable={false}
        keyboard={false}
        destroyOnHidden
      >
        {codes && <RecoveryCodesPanel codes={codes} email={session?.email} heading={false} onDone={() => setCodes(null)} />}
      </Modal>
    </PageHeader>
  );
}
