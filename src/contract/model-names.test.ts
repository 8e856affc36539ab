import { describe, expect, it } from 'vitest'
import { modelName, replyModelName } from './model-names.ts'
import { markdownToPlain, threadTitleFrom } from './threads.ts'

describe('model names', () => {
  it('names known models as people call them', () => {
    expect(modelName('gemini-2.5-flash-lite')).toBe('Gemini 2.5 Flash Lite')
    expect(modelName('gemini-2.5-pro')).toBe('Gemini 2.5 Pro')
    expect(modelName('gemini-2.0-flash')).toBe('Gemini 2.0 Flash')
    expect(modelName('gpt-3.5-turbo')).toBe('GPT-3.5 Turbo')
    expect(modelName('/models/smollm2-360m-instruct-q8_0.gguf')).toBe('SmolLM2 360M')
    expect(modelName('qwen2.5:0.5b')).toBe('Qwen2.5 0.5B')
    // ChatGPT export slugs.
    expect(modelName('gpt-4o')).toBe('GPT-4o')
    expect(modelName('gpt-4')).toBe('GPT-4')
    expect(modelName('gpt-4-gizmo')).toBe('GPT-4')
    expect(modelName('text-davinci-002-render-sha')).toBe('GPT-3.5')
    expect(replyModelName('chatgpt', 'gpt-4o')).toBe('GPT-4o')
  })

  it('tidies unknown ids and says when eco mode answered', () => {
    expect(modelName('my-new_model.gguf')).toBe('My New Model')
    expect(replyModelName('loris', 'HuggingFaceTB/SmolLM2-360M-Instruct')).toBe('Loris eco (SmolLM2 360M)')
    expect(replyModelName('loris', 'gemini-2.5-flash-lite')).toBe('Loris eco (Gemini 2.5 Flash Lite)')
    expect(replyModelName('gemini', null)).toBeNull()
  })
})

describe('thread titles are plain text', () => {
  it('keeps the words of markdown only', () => {
    expect(threadTitleFrom('Second message with **bold** and `inline code`')).toBe(
      'Second message with bold and inline code',
    )
    expect(markdownToPlain('# Title\n- item [link](http://x) ![img](a.png)')).toBe('Title\nitem link img')
    // Not emphasis: products, snake_case and escaped stars stay.
    expect(markdownToPlain('2*3*4 snake_case_name \\*x\\* *a*')).toBe('2*3*4 snake_case_name *x* a')
  })
})
