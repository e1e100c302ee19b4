package post

import (
	"bytes"
	"fmt"
	"html/template"
	"regexp"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/pgrst-lab/pgrst-lab/internal/textsafe"
	"github.com/pgrst-lab/pgrst-lab/lab/report"
)

// markdown renders the article as GitHub does (CommonMark, its tables),
// raw HTML off: goldmark's default leaves any tag out of the page, so no
// string of a run.json becomes markup even if an escape was missed.
var markdown = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough))

// figureRef is a paragraph that is only a chart's reference, as Build
// writes it ("![title](file.svg)").
var figureRef = regexp.MustCompile(`<p><img src="([a-z0-9-]+\.svg)" alt="[^"]*"\s*/?></p>`)

// HTML is the article as one self-contained page: the Markdown rendered,
// each chart's reference replaced by the chart itself (inline SVG), in
// the run reports' style.
func (a *Article) HTML() ([]byte, error) {
	var body bytes.Buffer
	if err := markdown.Convert([]byte(a.Markdown), &body); err != nil {
		return nil, fmt.Errorf("post: render the article: %w", err)
	}
	svgs := map[string]template.HTML{}
	for _, f := range a.Figures {
		svgs[f.File] = f.SVG
	}
	html := figureRef.ReplaceAllFunc(body.Bytes(), func(m []byte) []byte {
		file := string(figureRef.FindSubmatch(m)[1])
		if svg, ok := svgs[file]; ok {
			return []byte("<figure>" + string(svg) + "</figure>")
		}
		return m
	})
	var out bytes.Buffer
	err := page.Execute(&out, struct {
		Title string
		Style template.CSS
		Body  template.HTML
	}{textsafe.Plain(a.Title), report.Style(), template.HTML(html)}) // goldmark's output of escaped Markdown, raw HTML off
	if err != nil {
		return nil, fmt.Errorf("post: page: %w", err)
	}
	return out.Bytes(), nil
}

var page = template.Must(template.New("post").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>{{.Style}}
article th, article td { white-space: normal; }
article td:not([style]), article th:not([style]) { text-align: left; }
figure { margin: 1.5em 0 .5em; }
figure + p { color: #666; font-size: 13px; margin-top: 0; }
</style>
</head>
<body><article>
{{.Body}}
</article></body>
</html>
`))
