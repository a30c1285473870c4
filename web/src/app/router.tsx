import { type ComponentType, lazy } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { RootLayout } from './root-layout';

/** React.lazy for a named export: each page is its own chunk. */
function page<M, K extends keyof M>(load: () => Promise<M>, name: K) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

const campaigns = () => import('@/features/campaigns/routes/campaign-pages');
const lists = () => import('@/features/lists/routes/list-pages');
const segments = () => import('@/features/segments/routes/segment-pages');
const automationList = () => import('@/features/automations/routes/automations-page');
const automations = () => import('@/features/automations/routes/automation-pages');

const LandingPage = page(() => import('@/features/landing/routes/landing-page'), 'LandingPage');
const PrivacyPolicyPage = page(() => import('@/features/legal/routes/privacy-policy-page'), 'PrivacyPolicyPage');
const TermsOfUsePage = page(() => import('@/features/legal/routes/terms-of-use-page'), 'TermsOfUsePage');
const TemplateViewerPage = page(
  () => import('@/features/template-viewer/routes/template-viewer-page'),
  'TemplateViewerPage',
);
const NotFound = page(() => import('@/components/not-found'), 'NotFound');
const LoginPage = page(() => import('@/features/auth/routes/login-page'), 'LoginPage');
const RegisterPage = page(() => import('@/features/auth/routes/register-page'), 'RegisterPage');
const ForgotPasswordPage = page(() => import('@/features/auth/routes/forgot-password-page'), 'ForgotPasswordPage');
const ResetPasswordPage = page(() => import('@/features/auth/routes/reset-password-page'), 'ResetPasswordPage');
const InvitePage = page(() => import('@/features/auth/routes/invite-page'), 'InvitePage');
const EmailVerifiedPage = page(() => import('@/features/auth/routes/email-verified-page'), 'EmailVerifiedPage');
const AdminPage = page(() => import('@/features/admin/routes/admin-page'), 'AdminPage');
const TopupPage = page(() => import('@/features/balance/routes/topup-page'), 'TopupPage');
const ReceiptPage = page(() => import('@/features/balance/routes/receipt-page'), 'ReceiptPage');
const DashboardLayout = page(() => import('./dashboard-layout'), 'DashboardLayout');
const DashboardHomePage = page(() => import('@/features/dashboard/routes/dashboard-home-page'), 'DashboardHomePage');
const MyBalancePage = page(() => import('@/features/balance/routes/my-balance-page'), 'MyBalancePage');
const CampaignsPage = page(campaigns, 'CampaignsPage');
const NewCampaignPage = page(campaigns, 'NewCampaignPage');
const EditCampaignPage = page(campaigns, 'EditCampaignPage');
const CampaignCalendarPage = page(campaigns, 'CampaignCalendarPage');
// A campaign's template: the campaigns feature's data in the templates feature's editor, composed in app/.
const CampaignTemplatePage = page(() => import('./campaign-template-page'), 'CampaignTemplatePage');
const CampaignViewPage = page(campaigns, 'CampaignViewPage');
const ApiPage = page(() => import('./api-page'), 'ApiPage');
// The documentation viewer is big: its own chunk, loaded only on this route.
const ApiDocsPage = page(() => import('@/features/api-keys/routes/api-docs-page'), 'ApiDocsPage');
const ListsPage = page(lists, 'ListsPage');
const NewListPage = page(lists, 'NewListPage');
// A list's page shows the contacts feature's browser: composed in app/.
const ListPage = page(() => import('./list-page'), 'ListPage');
const SegmentsPage = page(segments, 'SegmentsPage');
const NewSegmentPage = page(segments, 'NewSegmentPage');
const SegmentPage = page(segments, 'SegmentPage');
const AutomationsPage = page(automationList, 'AutomationsPage');
const NewAutomationPage = page(automations, 'NewAutomationPage');
const AutomationPage = page(automations, 'AutomationPage');
const TemplatesPage = page(() => import('@/features/templates/routes/templates-page'), 'TemplatesPage');
const TemplateEditorPage = page(() => import('@/features/templates/routes/template-editor-page'), 'TemplateEditorPage');
const ContactsPage = page(() => import('@/features/contacts/routes/contacts-page'), 'ContactsPage');
const SettingsPage = page(() => import('@/features/settings/routes/settings-page'), 'SettingsPage');
const ConfirmSenderPage = page(() => import('@/features/settings/routes/confirm-sender-page'), 'ConfirmSenderPage');

/**
 * Every route of spec §2. Declarative routes with React.lazy pages: the data router (createBrowserRouter) costs
 * ~17 KB gzip more, which the landing page's 100 KB budget cannot afford, and no page uses loaders/actions.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route index element={<LandingPage />} />
        <Route path="privacy-policy" element={<PrivacyPolicyPage />} />
        <Route path="terms-of-use" element={<TermsOfUsePage />} />
        <Route path="campaign/:id/template-viewer" element={<TemplateViewerPage />} />
        <Route path="confirm-sender/:token" element={<ConfirmSenderPage />} />
        <Route path="auth">
          <Route path="login" element={<LoginPage />} />
          <Route path="register" element={<RegisterPage />} />
          <Route path="forgot-password" element={<ForgotPasswordPage />} />
          <Route path="reset-password" element={<ResetPasswordPage />} />
          <Route path="invite/:accountId" element={<InvitePage />} />
          <Route path="email-verified" element={<EmailVerifiedPage />} />
        </Route>
        <Route path="dashboard" element={<DashboardLayout />}>
          <Route index element={<DashboardHomePage />} />
          <Route path="my-balance" element={<MyBalancePage />} />
          <Route path="my-balance/topups/:id" element={<TopupPage />} />
          <Route path="my-balance/topups/:id/receipt" element={<ReceiptPage />} />
          <Route path="campaigns">
            <Route index element={<CampaignsPage />} />
            <Route path="new" element={<NewCampaignPage />} />
            <Route path="edit" element={<EditCampaignPage />} />
            <Route path="calendar" element={<CampaignCalendarPage />} />
            <Route path=":id/edit" element={<EditCampaignPage />} />
            <Route path=":id/template" element={<CampaignTemplatePage />} />
            <Route path=":id/view" element={<CampaignViewPage />} />
          </Route>
          <Route path="api">
            <Route index element={<ApiPage />} />
            <Route path="docs" element={<ApiDocsPage />} />
          </Route>
          <Route path="lists">
            <Route index element={<ListsPage />} />
            <Route path="new" element={<NewListPage />} />
            <Route path=":id" element={<ListPage />} />
          </Route>
          <Route path="templates">
            <Route index element={<TemplatesPage />} />
            <Route path=":id" element={<TemplateEditorPage />} />
          </Route>
          <Route path="contacts" element={<ContactsPage />} />
          <Route path="segments">
            <Route index element={<SegmentsPage />} />
            <Route path="new" element={<NewSegmentPage />} />
            <Route path=":id" element={<SegmentPage />} />
          </Route>
          <Route path="automations">
            <Route index element={<AutomationsPage />} />
            <Route path="new" element={<NewAutomationPage />} />
            <Route path=":id" element={<AutomationPage />} />
          </Route>
          <Route path="settings" element={<SettingsPage />} />
          <Route path="*" element={<NotFound />} />
        </Route>
        <Route path="admin" element={<DashboardLayout />}>
          <Route index element={<AdminPage />} />
        </Route>
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
