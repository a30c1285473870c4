import { Link } from 'react-router';
import { SiteFooter } from '@/components/layouts/site-footer';
import { SiteHeader } from '@/components/layouts/site-header';
import { useI18n } from '@/lib/i18n';
import { usePublicConfig } from '@/lib/public-config';
import { usePageTitle } from '@/lib/use-page-title';

/**
 * The privacy policy (spec §1), in pt-BR: it is the legal text recipients and senders in Brazil rely on,
 * so it is not machine-translated; the page chrome follows the chosen locale.
 */
/** The date of the text below: change it with every change of substance (LGPD art. 9: clear, up-to-date information). */
export const PRIVACY_POLICY_UPDATED = '25 de novembro de 2026';

export function PrivacyPolicyPage() {
  const { t } = useI18n();
  const { contactEmail, operatorLegalName, operatorTaxId, dpoName, dpoEmail } = usePublicConfig();
  usePageTitle(t('privacy.title'));
  const mailTo = (address: string) => (
    <a href={`mailto:${address}`} className="font-medium text-brand-700 underline underline-offset-2">
      {address}
    </a>
  );
  const mail = mailTo(contactEmail);

  return (
    <div className="flex min-h-dvh flex-col overflow-x-clip">
      <SiteHeader />
      <main className="flex-1 bg-white">
        <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
          <Link
            to="/"
            className="inline-flex items-center gap-1.5 text-sm font-semibold text-brand-700 hover:text-brand-900"
          >
            <svg viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor" aria-hidden="true">
              <path d="M12.8 4.2a.75.75 0 0 1 0 1.06L8.06 10l4.74 4.74a.75.75 0 1 1-1.06 1.06l-5.27-5.27a.75.75 0 0 1 0-1.06l5.27-5.27a.75.75 0 0 1 1.06 0" />
            </svg>
            {t('privacy.back')}
          </Link>
          <h1 className="mt-6 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">
            {t('privacy.title')}
          </h1>
          <p className="mt-3 text-sm text-slate-600">Última atualização: {PRIVACY_POLICY_UPDATED}</p>

          <div className="mt-10 space-y-10 text-base leading-relaxed text-slate-700 [&_h2]:mb-3 [&_h2]:text-xl [&_h2]:font-bold [&_h2]:text-slate-900 [&_li]:pl-1 [&_ul]:mt-3 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6 [&_p+p]:mt-3">
            <section>
              <p>
                O Carteiro é um serviço de envio de e-mails em massa usado por empresas para se comunicar com os seus
                contatos. Esta política explica quais dados pessoais tratamos, para quê, com quem os compartilhamos e
                como você exerce os seus direitos, de acordo com a Lei Geral de Proteção de Dados Pessoais (LGPD, Lei nº
                13.709/2018).
              </p>
              <p>
                Ela vale tanto para quem usa o Carteiro para enviar campanhas quanto para quem recebe e-mails enviados
                por meio dele.
              </p>
            </section>

            <section aria-labelledby="controlador">
              <h2 id="controlador">Quem trata os seus dados</h2>
              <p>
                {operatorLegalName ? (
                  <>
                    Esta instalação do Carteiro é mantida por <strong>{operatorLegalName}</strong>
                    {operatorTaxId ? `, CNPJ/CPF ${operatorTaxId}` : ''}, a controladora dos dados de quem usa o painel
                    (contato: {mail}).
                  </>
                ) : (
                  <>
                    A controladora dos dados de quem usa o painel é a empresa que mantém esta instalação do Carteiro
                    (contato: {mail}).
                  </>
                )}
              </p>
              <p>
                Para os contatos que recebem campanhas, a controladora é a empresa remetente (o nome e o CNPJ ou CPF
                dela aparecem no rodapé de cada e-mail); o Carteiro trata esses dados como operador, seguindo as
                instruções dela.
              </p>
            </section>

            <section aria-labelledby="dados-coletados">
              <h2 id="dados-coletados">1. Dados que coletamos</h2>
              <ul>
                <li>
                  <strong>Informações de contato:</strong> nome, endereço de e-mail e outros campos que o remetente
                  cadastrar, como cidade ou empresa.
                </li>
                <li>
                  <strong>Preferências de comunicação:</strong> as listas em que você está inscrito, os assuntos que
                  escolheu receber e os seus pedidos de descadastro.
                </li>
                <li>
                  <strong>Interações com os e-mails:</strong> se um e-mail foi entregue, aberto e quais links foram
                  clicados, com data e hora.
                </li>
                <li>
                  <strong>Dados de quem usa o painel:</strong> nome, e-mail, dados da conta e registros de acesso
                  necessários para a segurança do serviço.
                </li>
              </ul>
            </section>

            <section aria-labelledby="uso-dos-dados">
              <h2 id="uso-dos-dados">2. Como usamos os dados</h2>
              <ul>
                <li>
                  <strong>Personalizar</strong> as mensagens, por exemplo, chamando você pelo nome.
                </li>
                <li>
                  <strong>Gerenciar inscrições:</strong> enviar apenas o que você aceitou receber e respeitar
                  imediatamente os pedidos de descadastro.
                </li>
                <li>
                  <strong>Melhorar o serviço:</strong> medir entregas, aberturas e cliques para que os remetentes enviem
                  conteúdo mais relevante e para prevenir abusos e spam.
                </li>
              </ul>
              <p className="mt-3">Não vendemos dados pessoais e não os usamos para publicidade de terceiros.</p>
            </section>

            <section aria-labelledby="compartilhamento">
              <h2 id="compartilhamento">3. Compartilhamento</h2>
              <p>Seus dados não são compartilhados com ninguém, exceto:</p>
              <ul>
                <li>
                  com os <strong>provedores de envio de e-mail</strong> que entregam as mensagens, apenas na medida
                  necessária para a entrega; e
                </li>
                <li>
                  quando a <strong>lei</strong> ou uma ordem de autoridade competente exigir.
                </li>
              </ul>
            </section>

            <section aria-labelledby="preferencias">
              <h2 id="preferencias">4. Suas preferências e o descadastro</h2>
              <p>
                Todo e-mail enviado pelo Carteiro traz um link de <strong>descadastro em um clique</strong>: basta
                clicar para não receber mais mensagens daquele remetente, sem precisar fazer login. Pelo mesmo link você
                pode <strong>atualizar as suas preferências</strong> e escolher o que quer continuar recebendo.
              </p>
            </section>

            <section aria-labelledby="direitos">
              <h2 id="direitos">5. Seus direitos pela LGPD</h2>
              <p>Você pode, a qualquer momento e sem custo:</p>
              <ul>
                <li>
                  <strong>acessar</strong> os dados que temos sobre você e confirmar se os tratamos;
                </li>
                <li>
                  <strong>corrigir</strong> dados incompletos, inexatos ou desatualizados;
                </li>
                <li>
                  <strong>excluir</strong> os seus dados;
                </li>
                <li>
                  <strong>revogar o consentimento</strong> que deu para receber e-mails;
                </li>
                <li>
                  pedir a <strong>portabilidade</strong> dos seus dados a outro fornecedor.
                </li>
              </ul>
              <p className="mt-3">
                Respondemos aos pedidos no prazo previsto em lei. Se você recebeu um e-mail de uma empresa que usa o
                Carteiro, também pode falar diretamente com ela, que é a controladora dos seus dados.
              </p>
            </section>

            <section aria-labelledby="seguranca">
              <h2 id="seguranca">6. Segurança e retenção</h2>
              <p>
                Protegemos os dados com conexões criptografadas, controle de acesso e senhas armazenadas de forma
                irreversível. Guardamos os dados enquanto a conta do remetente estiver ativa ou enquanto a lei exigir.
                Depois de um pedido de exclusão, mantemos apenas o mínimo necessário para garantir que você não volte a
                receber e-mails.
              </p>
            </section>

            <section aria-labelledby="encarregado">
              <h2 id="encarregado">7. Encarregado e contato</h2>
              <p>
                Para exercer os seus direitos ou tirar dúvidas sobre esta política, fale com o nosso encarregado pelo
                tratamento de dados pessoais{dpoName ? <>, {dpoName},</> : null} pelo e-mail{' '}
                {mailTo(dpoEmail || contactEmail)}.
              </p>
              <p>
                Esta política pode ser atualizada. Mudanças importantes serão avisadas por e-mail a quem usa o painel.
              </p>
            </section>
          </div>

          <div className="mt-12 border-t border-slate-200 pt-8">
            <Link to="/" className="text-sm font-semibold text-brand-700 hover:text-brand-900">
              ← {t('privacy.back')}
            </Link>
          </div>
        </div>
      </main>
      <SiteFooter />
    </div>
  );
}
