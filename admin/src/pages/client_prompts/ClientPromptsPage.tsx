import { PageHeader } from '../../crud/PageHeader';
import { usePageTitle } from '../../layout/usePageTitle';
import { readSession } from '../../session';
import { can, isRole } from '@vigia/contract/rules/access';
import { FORBIDDEN_REASON } from '../../providers/access';
import { PromptsPanel } from '../../components/PromptsPanel';

/** /client_prompts: the client's global AI instructions (01 §2 menu, 03 §2). */
export default function ClientPromptsPage() {
  usePageTitle('Instrucciones IA');
  const role = readSession()?.role_name;
  const canWrite = isRole(role) && can(role, 'administer');
  return (
    <PageHeader title="Instrucciones IA">
      <PromptsPanel
        owner={{ kind: 'client' }}
        heading="Instrucciones globales para Glady IA (aplican a todos los pacientes)"
        titles={{ create: 'Nueva instrucción global', edit: 'Editar instrucción global' }}
        canWrite={canWrite}
        disabledReason={FORBIDDEN_REASON}
        allowDelete
      />
    </PageHeader>
  );
}
