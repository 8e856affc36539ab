import { LegalLayout } from './legal-layout.tsx'

export default function PrivacyPolicyPage() {
  return (
    <LegalLayout title="Privacy Policy">
      <p>
        Loris is an AI chat assistant that shows the carbon footprint of every answer. This policy explains
        what we collect when you use Loris, why, who else sees it, and the choices you have. We collect as
        little as the service needs and we never sell personal data.
      </p>
      <h2>What we collect</h2>
      <ul>
        <li>
          <strong>Account data:</strong> your e-mail address and a one-way hash of your password (we cannot
          read your password), or, if you continue with Google, your Google account identifier and e-mail
          address.
        </li>
        <li>
          <strong>Conversations:</strong> the messages you write, the replies you receive, the files and voice
          recordings you attach, and the thread titles you choose.
        </li>
        <li>
          <strong>Usage and impact figures:</strong> the number of characters sent to and received from the
          models, the model that answered, token counts and response times, and the CO2 estimates and tree
          count derived from them.
        </li>
        <li>
          <strong>Waitlist:</strong> the e-mail address you leave in the waitlist form.
        </li>
        <li>
          <strong>Technical data:</strong> a session cookie that keeps you signed in, and short-lived server
          logs (request path, status, time, IP address) that we use to keep the service secure.
        </li>
        <li>
          <strong>Payments:</strong> if you subscribe to Loris Pro, payment details are collected and held by
          our payment processor, Stripe. We store only the subscription status and its dates.
        </li>
      </ul>
      <h2>Why we use it</h2>
      <ul>
        <li>
          To run the chat: your message and the recent history of its thread are sent to the model you chose.
        </li>
        <li>
          To show your impact: token counts and response times feed the CO2 estimate shown for each reply.
        </li>
        <li>To enforce fair-use limits, prevent abuse and keep accounts secure.</li>
        <li>To manage your subscription and tell you about the product if you joined the waitlist.</li>
      </ul>
      <h2>Who else processes it</h2>
      <p>
        Depending on the mode you pick, your messages and attachments are processed by Google (Gemini), OpenAI
        (ChatGPT) or the provider that hosts our Loris eco model, under their API terms, which do not allow
        them to train models on API traffic. Payments are processed by Stripe. Google sign-in is provided by
        Google. We use no advertising or analytics trackers.
      </p>
      <h2>Cookies</h2>
      <p>
        We use a single essential cookie to keep you signed in. Your chat mode preference and a waitlist draft
        are kept in your browser&apos;s local storage and never leave your device.
      </p>
      <h2>How long we keep it</h2>
      <p>
        Conversations and files stay until you delete them: you can delete a thread, clear your whole history,
        or delete your account from the settings page, which removes your messages, files and usage records at
        once. Server logs are kept for at most 30 days. Billing records are kept as long as tax law requires.
      </p>
      <h2>Your rights</h2>
      <p>
        You can access, correct, export or delete your data, object to its use, and complain to your data
        protection authority. Most of this is self-service in the settings page; for anything else write to us
        and we will answer within 30 days.
      </p>
      <h2>Contact</h2>
      <p>
        Questions about privacy:{' '}
        <a className="text-primary hover:underline" href="mailto:privacy@loris.eco">
          privacy@loris.eco
        </a>
        .
      </p>
    </LegalLayout>
  )
}
