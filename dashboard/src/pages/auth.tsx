// Getting in: sign in, the second factor, sign up (registration and its e-mailed token), forgotten password,
// accepting an invitation, each in components/auth/. Each form shows the API's error envelope, and the
// refusal of a field beside it (hooks/api/form-errors.ts).
export { AcceptInvitationPage } from "../components/auth/AcceptInvitation";
export { ForgotPasswordPage, ResetPasswordPage } from "../components/auth/PasswordReset";
export { SignInPage } from "../components/auth/SignIn";
export { SignUpPage, VerifyRegistrationPage } from "../components/auth/SignUp";
export { TwoFactorPage } from "../components/auth/TwoFactor";
