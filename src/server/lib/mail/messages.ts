// The texts Loris mails. Plain text only: nothing to render, nothing to track.
import type { OutgoingMail } from './mailer.ts'

const SIGNATURE = '\n\n-- \nLoris, AI chat that cares for the planet'

export function verifyEmailMail(to: string, link: string, hours: number): OutgoingMail {
  return {
    to,
    kind: 'verify-email',
    subject: 'Confirm your e-mail address for Loris',
    text:
      `Please confirm that this is your e-mail address by opening this link:\n\n${link}\n\n` +
      `The link works once and expires in ${hours} hours. If you did not create a Loris account ` +
      `or change your address, you can ignore this message.${SIGNATURE}`,
  }
}

export function resetPasswordMail(to: string, link: string, minutes: number): OutgoingMail {
  return {
    to,
    kind: 'reset-password',
    subject: 'Reset your Loris password',
    text:
      `Someone (hopefully you) asked to reset the password of the Loris account for this address.\n\n` +
      `Choose a new password here:\n\n${link}\n\nThe link works once and expires in ${minutes} minutes. ` +
      `Choosing a new password signs out every other device. If you did not ask for this, ignore ` +
      `this message: your password stays as it is.${SIGNATURE}`,
  }
}

export function emailChangedNotice(
  to: string,
  newEmail: string,
  recoverLink: string,
  days: number,
): OutgoingMail {
  return {
    to,
    kind: 'email-changed',
    security: true,
    subject: 'Your Loris e-mail address was changed',
    text:
      `The e-mail address of your Loris account was changed from this address to ${newEmail}.\n\n` +
      `If you did not do this, someone may have access to your account. Take it back with this ` +
      `link: it gives the account this address again, lets you choose a new password and signs ` +
      `out every device.\n\n${recoverLink}\n\nThe link works once and for ${days} days. If you ` +
      `made the change yourself, you can ignore this message.${SIGNATURE}`,
  }
}

export function registrationAttemptNotice(to: string, signInLink: string): OutgoingMail {
  return {
    to,
    kind: 'register-attempt',
    subject: 'Someone tried to create a Loris account with your address',
    text:
      `Someone tried to create a new Loris account with this e-mail address, which already has one.\n\n` +
      `If it was you, sign in instead at ${signInLink} (if you forgot your password, use ` +
      `"Forgot password?" there).\n\nIf it was not you, you can ignore this message: nothing was ` +
      `changed.${SIGNATURE}`,
  }
}

export function passwordChangedNotice(to: string): OutgoingMail {
  return {
    to,
    kind: 'password-changed',
    security: true,
    subject: 'Your Loris password was changed',
    text:
      `The password of your Loris account was just changed and every other device was signed out.\n\n` +
      `If you did not do this, reset your password from the sign-in screen ("Forgot password?") ` +
      `right away.${SIGNATURE}`,
  }
}

export function inviteMail(to: string, link: string, days: number): OutgoingMail {
  return {
    to,
    kind: 'invite',
    subject: 'Your invitation to Loris',
    text:
      `You asked to hear when Loris opens: your place is ready. Create your account with this ` +
      `link:\n\n${link}\n\nThe link works once, for this address, and for ${days} days. If you did ` +
      `not join the Loris waitlist, you can ignore this message.${SIGNATURE}`,
  }
}
